/**
 * What the user reads when something fails: one sentence per error code saying what happened,
 * and one saying what to do (rule U30). Every {@link ErrorCode} has an entry; the record type makes
 * a missing code a compile error.
 */
import { AppError, type ErrorCode } from '../core/errors';

export interface ErrorCopy {
  /** What happened, in plain words. */
  what: string;
  /** What the user can do about it. */
  action: string;
}

const COPY: Record<ErrorCode, ErrorCopy> = {
  webgpu_unavailable: {
    what: 'This browser has no WebGPU, so the local chat model cannot run here.',
    action:
      'Open Loci in a recent Chrome or Edge to chat; memory, documents and search still work here.',
  },
  webgpu_software_only: {
    what: 'Only a software GPU is available, which is far too slow for the chat model.',
    action:
      'Turn on hardware acceleration or use a device with a real GPU; memory, documents and search still work here.',
  },
  shader_f16_unsupported: {
    what: 'This GPU cannot run the 16-bit build of the model.',
    action: 'Pick the q4f32 build of a model on the Models screen.',
  },
  device_lost: {
    what: 'The GPU stopped responding (the browser reset it).',
    action:
      'Reload the page and load the model again; a smaller model is less likely to run out of memory.',
  },
  model_not_loaded: {
    what: 'No chat model is loaded yet.',
    action: 'Go to Models, download a model that fits this device, and come back to chat.',
  },
  model_load_failed: {
    what: 'The chat model could not be started.',
    action: 'Try loading it again from the Models screen, or pick a smaller model.',
  },
  model_download_failed: {
    what: 'The model download failed part way.',
    action: 'Check your connection and start the download again; finished parts are kept.',
  },
  model_download_cancelled: {
    what: 'The model download was cancelled.',
    action: 'Start it again from the Models screen whenever you like; finished parts are kept.',
  },
  network_unavailable: {
    what: 'There is no network connection, so the model cannot be downloaded now.',
    action: 'Connect to the internet and try again; once downloaded, models work offline.',
  },
  context_window_exceeded: {
    what: "The prompt did not fit in the model's context window.",
    action:
      'Retry the turn; if it happens again, shorten the message or lower the recall budget in Settings.',
  },
  generation_interrupted: {
    what: 'The reply was interrupted before it finished.',
    action: 'Press Retry to run the turn again.',
  },
  schema_violation: {
    what: 'The model produced a step that does not follow the required format.',
    action: 'Press Retry; if it keeps happening, try another model.',
  },
  worker_crashed: {
    what: 'The background worker running the model crashed.',
    action: 'Press Retry; Loci restarts the worker. If it repeats, reload the page.',
  },
  worker_unavailable: {
    what: 'This browser could not start a background worker.',
    action: 'Reload the page, or use a recent Chrome, Edge or Firefox.',
  },
  rpc_unknown_method: {
    what: 'A part of Loci asked a worker for something it does not know (a version mismatch).',
    action: 'Reload the page to get matching versions of the app.',
  },
  embedder_failed: {
    what: 'The embedding model failed, so search by meaning is off for now.',
    action: 'Word search still works; reload the page to try the embedding model again.',
  },
  embedding_dimension_mismatch: {
    what: 'Stored memories were embedded with a different embedding model.',
    action: 'Re-embed memories from Settings, or switch back to the previous embedding model.',
  },
  storage_quota_exceeded: {
    what: 'This device has run out of storage space for Loci, so nothing new was saved.',
    action: 'Free space by deleting a model or old documents, then try again.',
  },
  storage_unavailable: {
    what: 'This browser does not let Loci use its storage (private mode can do this).',
    action: 'Open Loci in a normal window, or allow site data for this page.',
  },
  storage_newer_version: {
    what: 'Your Loci data was saved by a newer version of Loci than this tab runs, so this tab leaves it untouched.',
    action: 'Reload the page to get the newest version; nothing was changed or lost.',
  },
  storage_upgrade_failed: {
    what: 'Updating your library to the new format did not finish. Nothing was lost: the update is all-or-nothing, so your library is still there in the old format.',
    action:
      'Close other Loci tabs and reload this page to try again. If it fails again, free some storage space on this device first.',
  },
  storage_failed: {
    what: 'Saving to this device failed, and nothing was half-written.',
    action: 'Try again; if it repeats, reload the page.',
  },
  not_found: {
    what: 'What you asked for no longer exists (it may have been deleted in another tab).',
    action: 'Go back and pick it again from the list.',
  },
  invalid_argument: {
    what: 'That value is not accepted.',
    action: 'Check the field and try again.',
  },
  agent_busy: {
    what: 'This agent is running in another tab.',
    action: 'Wait for that tab to finish, or close it; this view updates live.',
  },
  backup_invalid: {
    what: 'This backup file is damaged or not a Loci backup, so nothing was imported.',
    action: 'Choose another file; your current data is unchanged.',
  },
  backup_wrong_passphrase: {
    what: 'The passphrase does not open this backup, so nothing was imported.',
    action: 'Type the passphrase again exactly as it was set.',
  },
  backup_unsupported_version: {
    what: 'This backup was made by a different version of Loci.',
    action: 'Update Loci, or export the backup again from the version that made it.',
  },
  document_unsupported: {
    what: 'Loci cannot read this kind of file.',
    action: 'Import plain text, Markdown, HTML or PDF files.',
  },
  document_parse_failed: {
    what: 'The file could not be read (it may be damaged or protected).',
    action: 'Try another copy of the file, or paste its text into a note.',
  },
  cancelled: {
    what: 'Stopped as you asked.',
    action: 'Press Retry to run it again.',
  },
  endpoint_unreachable: {
    what: 'Your model server could not be reached, or it refused this page (CORS).',
    action:
      'Start the server and check the address and port; if it is running, allow this page’s origin on it (Ollama: OLLAMA_ORIGINS; LM Studio: Enable CORS; vLLM: --allowed-origins), then Retry.',
  },
  endpoint_cors: {
    what: 'Your model server answered but does not let web pages read its replies (CORS).',
    action:
      'Allow this page’s origin on the server (Ollama: OLLAMA_ORIGINS; LM Studio: Enable CORS; vLLM: --allowed-origins), restart it, then Retry.',
  },
  endpoint_mixed_content: {
    what: 'The browser blocks a secure (https) page from calling a plain-http server on the network.',
    action: 'Serve the model server over https, or run it on this device at http://127.0.0.1.',
  },
  endpoint_blocked: {
    what: 'This copy of Loci is not allowed to call that server address (its security policy).',
    action:
      'Use a server on this device (127.0.0.1 or localhost), or ask whoever hosts Loci to add the address to LOCI_MODEL_SERVERS.',
  },
  endpoint_auth: {
    what: 'Your model server refused the API key.',
    action: 'Fix the key on the Models screen (Use my own model server), then Retry.',
  },
  endpoint_no_model: {
    what: 'Your model server does not have that model.',
    action: 'Pick a model it lists on the Models screen, or load it on the server first.',
  },
  endpoint_no_json_schema: {
    what: 'Your model server does not follow the JSON schema Loci sends with every step.',
    action:
      'Update the server, or use one that supports response_format json_schema (llama.cpp server, Ollama, LM Studio, vLLM).',
  },
  endpoint_stream_cut: {
    what: 'Your model server stopped in the middle of the reply; nothing of it was saved.',
    action: 'Check that the server is still running, then press Retry.',
  },
  endpoint_failed: {
    what: 'Your model server returned an error.',
    action: 'Read the server’s message below, fix it on the server, then Retry.',
  },
  endpoint_stalled: {
    what: 'Your model server stopped sending anything, so Loci stopped waiting; nothing of the reply was saved.',
    action:
      'Check that the server is still running (and not stuck reading a long prompt), then press Retry.',
  },
  endpoint_redirect: {
    what: 'Your model server answered with a redirect to another address; Loci does not follow it, so your conversation was not sent there.',
    action:
      'Enter the server’s final address on the Models screen (Use my own model server), then Retry.',
  },
  reply_too_long: {
    what: 'The model kept writing far past the length Loci asked for, so Loci stopped it; nothing of the reply was saved.',
    action:
      'Press Retry; if it happens again, check the model server’s settings (it may ignore max_tokens) or pick another model.',
  },
  internal: {
    what: 'Something went wrong inside Loci.',
    action: 'Try again; if it repeats, reload the page. Your saved data is unchanged.',
  },
};

/** The copy for one error code. */
export function errorCopy(code: ErrorCode): ErrorCopy {
  return COPY[code];
}

/** The copy for any thrown value (non-AppErrors count as `internal`). */
export function describeError(error: unknown): ErrorCopy & { code: ErrorCode; detail: string } {
  const e = AppError.from(error);
  return { ...COPY[e.code], code: e.code, detail: e.message };
}

/** Every code with copy, for tests and docs. */
export const ERROR_COPY_CODES = Object.keys(COPY) as ErrorCode[];
