/**
 * Stable error codes for faults (lane 3 of the house style). The UI maps each code to a sentence
 * that says what happened and what to do (see `src/ui/error-copy.ts`).
 */
export type ErrorCode =
  | 'webgpu_unavailable'
  | 'webgpu_software_only'
  | 'shader_f16_unsupported'
  | 'device_lost'
  | 'model_not_loaded'
  | 'model_load_failed'
  | 'model_download_failed'
  | 'model_download_cancelled'
  | 'network_unavailable'
  | 'context_window_exceeded'
  | 'generation_interrupted'
  | 'schema_violation'
  | 'worker_crashed'
  | 'worker_unavailable'
  | 'rpc_unknown_method'
  | 'embedder_failed'
  | 'embedding_dimension_mismatch'
  | 'storage_quota_exceeded'
  | 'storage_unavailable'
  | 'storage_newer_version'
  | 'storage_upgrade_failed'
  | 'storage_failed'
  | 'not_found'
  | 'invalid_argument'
  | 'agent_busy'
  | 'backup_invalid'
  | 'backup_wrong_passphrase'
  | 'backup_unsupported_version'
  | 'document_unsupported'
  | 'document_parse_failed'
  | 'cancelled'
  | 'endpoint_unreachable'
  | 'endpoint_cors'
  | 'endpoint_mixed_content'
  | 'endpoint_blocked'
  | 'endpoint_auth'
  | 'endpoint_no_model'
  | 'endpoint_no_json_schema'
  | 'endpoint_stream_cut'
  | 'endpoint_failed'
  | 'endpoint_stalled'
  | 'endpoint_redirect'
  | 'reply_too_long'
  | 'internal';

/** The plain-data form of an {@link AppError}, as it crosses a worker boundary. */
export interface WireError {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** A fault with a stable code. Survives `postMessage` via {@link AppError.toWire}/{@link AppError.fromWire}. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }

  toWire(): WireError {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  static fromWire(wire: WireError): AppError {
    return new AppError(wire.code, wire.message, wire.details);
  }

  /** Wraps any thrown value; an AppError passes through unchanged. */
  static from(error: unknown, fallback: ErrorCode = 'internal'): AppError {
    if (error instanceof AppError) return error;
    if (isWireError(error)) return AppError.fromWire(error);
    const message = error instanceof Error ? error.message : String(error);
    return new AppError(fallback, message);
  }
}

export function isWireError(value: unknown): value is WireError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
