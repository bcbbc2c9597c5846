import { AppError, type ErrorCode } from '../../../core/errors';

// web-llm errors cross its worker boundary as strings (`err.toString()`), so they are classified by
// their class-name prefix or a known message fragment. First match wins.
const RULES: { test: RegExp; code: ErrorCode; message: string }[] = [
  {
    test: /WebGPUNotAvailableError|WebGPUNotFoundError|navigator\.gpu/i,
    code: 'webgpu_unavailable',
    message: 'WebGPU is not available in this browser, so the chat model cannot run.',
  },
  {
    test: /ShaderF16SupportError|shader-f16|FeatureSupportError/i,
    code: 'shader_f16_unsupported',
    message: 'This GPU lacks 16-bit shaders (shader-f16); pick a q4f32 build of the model.',
  },
  {
    test: /DeviceLostError|device (was )?lost/i,
    code: 'device_lost',
    message: 'The GPU was lost (driver reset or out of memory). Reload the model.',
  },
  {
    test: /ContextWindowSizeExceededError|context window size/i,
    code: 'context_window_exceeded',
    message: "The prompt is longer than the model's context window.",
  },
  {
    test: /Failed to fetch|NetworkError|ERR_INTERNET_DISCONNECTED|Load failed|network/i,
    code: 'network_unavailable',
    message:
      'The model could not be downloaded: the network is unavailable. Connect and try again; downloaded parts are kept.',
  },
  {
    test: /QuotaExceededError|quota/i,
    code: 'storage_quota_exceeded',
    message:
      'The browser has no room left to store the model. Free some space or delete another model.',
  },
  {
    test: /ModelNotLoadedError|WorkerEngineModelNotLoadedError|not loaded/i,
    code: 'model_not_loaded',
    message: 'No chat model is loaded.',
  },
  {
    test: /ModelNotFoundError|SpecifiedModelNotFoundError|UnsupportedModelIdError|Cannot find model record/i,
    code: 'not_found',
    message: 'This model is not in the catalog.',
  },
  {
    test: /InvalidResponseFormat|GrammarMatcherInitError/i,
    code: 'invalid_argument',
    message: 'The JSON schema given to the model is not valid for its grammar engine.',
  },
  { test: /AbortError|interrupt/i, code: 'cancelled', message: 'The generation was stopped.' },
];

/**
 * Turns whatever web-llm threw (an Error, or the string form it uses across workers) into an
 * {@link AppError} with a stable code (rule E15); the original text is kept in `details.raw`.
 * `fallback` is the code for anything unknown (`model_load_failed` during a load).
 */
export function classifyWebLlmError(error: unknown, fallback: ErrorCode = 'internal'): AppError {
  if (error instanceof AppError) return error;
  const raw = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  for (const rule of RULES) {
    if (rule.test.test(raw)) return new AppError(rule.code, rule.message, { raw });
  }
  return new AppError(fallback, raw, { raw });
}
