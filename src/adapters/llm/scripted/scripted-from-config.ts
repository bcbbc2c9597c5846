import { AppError } from '../../../core/errors';
import type { CompletionRequest } from '../../../core/ports/llm-engine';
import type { ScriptedConfig, TokenizerSource } from '../../../rpc/llm-api';
import { ScriptedEngine } from './scripted-engine';

/** A ScriptedEngine the LLM worker can host, built from a config posted by the e2e page. */
export class HostedScriptedEngine extends ScriptedEngine {
  tokenizerSource(): TokenizerSource {
    return { type: 'llama3' };
  }
}

/**
 * Builds the e2e build's scripted engine from plain data: queued outputs first (but never for a
 * request without a JSON schema that a rule answers, such as a flush's summary request), then the
 * first rule whose pattern matches the last user message, then the fallback (rule E18).
 */
export function createScriptedFromConfig(config: ScriptedConfig): HostedScriptedEngine {
  const rules = (config.rules ?? []).map((r) => ({
    re: new RegExp(r.pattern, r.flags),
    reply: r.reply,
  }));
  const lastUserText = (request: CompletionRequest): string =>
    [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const ruleFor = (request: CompletionRequest) =>
    rules.find((r) => r.re.test(lastUserText(request)));
  return new HostedScriptedEngine({
    outputs: config.outputs ?? [],
    ...(config.contextWindow !== undefined ? { contextWindow: config.contextWindow } : {}),
    ...(config.chunkChars !== undefined ? { chunkChars: config.chunkChars } : {}),
    ...(config.readTokensPerSecond !== undefined
      ? { prefixCache: true, readTokensPerSecond: config.readTokensPerSecond }
      : {}),
    // A request without a schema that a rule answers (a flush's summary request) never takes a
    // queued model step (E18).
    queueAnswers: (request) => request.jsonSchema !== undefined || ruleFor(request) === undefined,
    rule: (request, callIndex) => {
      const last = lastUserText(request);
      const hit = ruleFor(request);
      if (hit) return hit.reply;
      if (config.fallback !== undefined) return config.fallback;
      throw new AppError(
        'internal',
        `No scripted rule matches call ${callIndex + 1}: "${last.slice(0, 80)}".`,
      );
    },
  });
}
