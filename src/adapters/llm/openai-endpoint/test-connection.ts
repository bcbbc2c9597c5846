import { AppError } from '../../../core/errors';
import type { ConnectionReport, EndpointSettings } from '../../../rpc/endpoint-types';
import { EndpointEngine } from './endpoint-engine';

export type { ConnectionReport };
import type { EndpointEnv } from './endpoint-http';

/** A schema small enough for any model to answer within a few tokens. */
const PROBE_SCHEMA = {
  type: 'object',
  properties: { ok: { type: 'boolean' } },
  required: ['ok'],
  additionalProperties: false,
};

/**
 * Test connection (rule E71): lists the models (reachability, CORS, key), picks `model` or the
 * first listed, reads the window, then asks for one schema-constrained reply and checks that it
 * follows the schema — a server that accepts `response_format` but ignores it fails here with
 * `endpoint_no_json_schema`.
 */
export async function testConnection(
  settings: EndpointSettings,
  model: string | null,
  env: EndpointEnv,
): Promise<ConnectionReport> {
  let models: string[] | null = null;
  try {
    const engine = new EndpointEngine(settings, env);
    models = (await engine.listModels()).ids;
    const chosen = model && models.includes(model) ? model : model ? null : (models[0] ?? null);
    if (!chosen) {
      throw new AppError(
        'endpoint_no_model',
        model
          ? `The model server has no model “${model}” (it lists: ${models.join(', ') || 'none'}).`
          : 'The model server lists no models; load or pull one on the server first.',
        { model },
      );
    }
    await engine.load(chosen);
    const reply = await engine.complete({
      messages: [
        { role: 'system', content: 'Answer with a JSON object {"ok": true}.' },
        { role: 'user', content: 'Are you there?' },
      ],
      maxTokens: 48,
      temperature: 0,
      jsonSchema: PROBE_SCHEMA,
    });
    if (!followsProbe(reply.text)) {
      throw new AppError(
        'endpoint_no_json_schema',
        `The model server accepted the JSON schema but did not follow it (it answered “${reply.text.slice(0, 80)}”). Loci would retry every step and then stop; use a server that supports response_format json_schema (llama.cpp server, Ollama ≥ 0.5, LM Studio, vLLM).`,
      );
    }
    const facts = engine.serverFacts();
    if (!facts) throw new AppError('internal', 'The model loaded without server facts.');
    return { ok: true, model: chosen, ...facts };
  } catch (error) {
    return { ok: false, error: AppError.from(error).toWire(), models };
  }
}

function followsProbe(text: string): boolean {
  try {
    const value = JSON.parse(text) as unknown;
    return (
      typeof value === 'object' &&
      value !== null &&
      Object.keys(value).length === 1 &&
      typeof (value as { ok?: unknown }).ok === 'boolean'
    );
  } catch {
    return false;
  }
}
