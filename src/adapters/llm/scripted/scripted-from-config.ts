import { AppError } from '../../../core/errors';
import type { ScriptedConfig, TokenizerSource } from '../../../rpc/llm-api';
import { ScriptedEngine } from './scripted-engine';

/** A ScriptedEngine the LLM worker can host, built from a config posted by the e2e page. */
export class HostedScriptedEngine extends ScriptedEngine {
  tokenizerSource(): TokenizerSource {
    return { type: 'llama3' };
  }
}

/**
 * Builds the e2e build's scripted engine from plain data: queued outputs first (for the model's
 * steps, the requests with a JSON schema), then the first rule whose pattern matches the last
 * user message, then the fallback (rule E18).
 */
export function createScriptedFromConfig(config: ScriptedConfig): HostedScriptedEngine {
  const rules = (config.rules ?? []).map((r) => ({
    re: new RegExp(r.pattern, r.flags),
    reply: r.reply,
  }));
  return new HostedScriptedEngine({
    outputs: config.outputs ?? [],
    ...(config.contextWindow !== undefined ? { contextWindow: config.contextWindow } : {}),
    ...(config.chunkChars !== undefined ? { chunkChars: config.chunkChars } : {}),
    queueAnswers: (request) => request.jsonSchema !== undefined,
    rule: (request, callIndex) => {
      const last = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
      const hit = rules.find((r) => r.re.test(last));
      if (hit) return hit.reply;
      if (config.fallback !== undefined) return config.fallback;
      throw new AppError(
        'internal',
        `No scripted rule matches call ${callIndex + 1}: "${last.slice(0, 80)}".`,
      );
    },
  });
}
