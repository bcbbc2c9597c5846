/** The user's own model server, as the LLM worker and the main thread both see it (ADR 0121). */
import type { WireError } from '../core/errors';
import type { Tokens } from '../core/units';

/** Model ids that name a model on the user's own server: `server:<model>`. */
export const SERVER_MODEL_PREFIX = 'server:';

/** The server settings, as stored in this browser's device settings (never in backups). */
export interface EndpointSettings {
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set. */
  apiKey?: string;
  /**
   * The user's window: planned with when the server does not say, and the most Loci plans with
   * when it does (E83).
   */
  contextWindow?: Tokens;
  /**
   * Seconds without a byte from the server before a request is given up (E82); 120 when absent.
   * A device setting for slow servers (and the e2e suite), not shown on the Models screen.
   */
  stallSeconds?: number;
}

/** Where the window came from, for the Models screen. */
export type WindowSource =
  'llama.cpp /props' | 'ollama /api/show' | 'vllm max_model_len' | 'setting' | 'default';

export interface ServerFacts {
  models: string[];
  contextWindow: Tokens;
  windowSource: WindowSource;
  /**
   * Set when the reported window was larger than Loci plans with (E83): capped at the maximum
   * (`maximum`, ADR 0187) or at the user's own window setting (`setting`).
   */
  windowCapped?: 'maximum' | 'setting';
  /** The server has llama.cpp's (or vLLM's) `/tokenize`. */
  tokenize: boolean;
}

/** What "Test connection" found: each check in order, the first failure named exactly. */
export type ConnectionReport =
  | ({ ok: true; model: string } & ServerFacts)
  | { ok: false; error: WireError; models: string[] | null };
