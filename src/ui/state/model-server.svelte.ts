/**
 * "Use my own model server" on the Models screen (rules U280–U284): presets, address, key,
 * Test connection, the model picker. The settings live in this browser's device settings
 * (`localStorage`), so the key never reaches IndexedDB or a backup (ADR 0121).
 */
import type { DeviceSettings } from '../../core/ports/device-settings';
import {
  SERVER_MODEL_PREFIX,
  type ConnectionReport,
  type EndpointSettings,
} from '../../rpc/endpoint-types';
import { describeError, type ErrorCopy } from '../error-copy';

export const ENDPOINT_SETTINGS_KEY = 'llm.endpoint';

export interface ServerPreset {
  name: string;
  baseUrl: string;
}

/** Each server's default address for its OpenAI-compatible API. */
export const SERVER_PRESETS: readonly ServerPreset[] = [
  { name: 'Ollama', baseUrl: 'http://127.0.0.1:11434/v1' },
  { name: 'llama.cpp server', baseUrl: 'http://127.0.0.1:8080/v1' },
  { name: 'LM Studio', baseUrl: 'http://127.0.0.1:1234/v1' },
  { name: 'vLLM', baseUrl: 'http://127.0.0.1:8000/v1' },
];

/** What is kept: the server settings plus the model picked on it. */
export interface SavedServer extends EndpointSettings {
  model?: string;
}

export interface ModelServerDeps {
  device: DeviceSettings;
  /** Test connection in the LLM worker. */
  test(settings: EndpointSettings, model: string | null): Promise<ConnectionReport>;
  /** Loads a model (the Models screen's download path); true when it loaded. */
  use(modelId: string): Promise<boolean>;
}

/** The saved stall time, when it is a positive number of seconds (E82). */
function stallOf(saved: SavedServer | undefined): Pick<EndpointSettings, 'stallSeconds'> {
  const seconds = saved?.stallSeconds;
  return typeof seconds === 'number' && seconds > 0 ? { stallSeconds: seconds } : {};
}

export class ModelServerState {
  baseUrl = $state('');
  apiKey = $state('');
  /** The user's window, used when the server does not say (empty: 4,096). */
  contextWindow = $state<number | null>(null);
  model = $state<string | null>(null);
  report = $state.raw<ConnectionReport | null>(null);
  failure = $state.raw<(ErrorCopy & { code: string; detail: string }) | null>(null);
  testing = $state(false);

  constructor(private readonly deps: ModelServerDeps) {
    const saved = deps.device.get<SavedServer>(ENDPOINT_SETTINGS_KEY);
    if (saved) {
      this.baseUrl = saved.baseUrl;
      this.apiKey = saved.apiKey ?? '';
      this.contextWindow = saved.contextWindow ?? null;
      this.model = saved.model ?? null;
    }
  }

  /** The saved server, for the engine (null until one was used). */
  saved(): EndpointSettings | null {
    const saved = this.deps.device.get<SavedServer>(ENDPOINT_SETTINGS_KEY);
    if (!saved?.baseUrl) return null;
    return {
      baseUrl: saved.baseUrl,
      ...(saved.apiKey ? { apiKey: saved.apiKey } : {}),
      ...(saved.contextWindow ? { contextWindow: saved.contextWindow } : {}),
      ...stallOf(saved),
    };
  }

  private settings(): EndpointSettings {
    const key = this.apiKey.trim();
    const window = this.contextWindow && this.contextWindow > 0 ? this.contextWindow : null;
    return {
      baseUrl: this.baseUrl.trim(),
      ...(key ? { apiKey: key } : {}),
      ...(window ? { contextWindow: Math.floor(window) } : {}),
      // The stall time has no field on the screen (E82): a saved one is kept.
      ...stallOf(this.deps.device.get<SavedServer>(ENDPOINT_SETTINGS_KEY)),
    };
  }

  preset(preset: ServerPreset): void {
    this.baseUrl = preset.baseUrl;
    this.report = null;
    this.failure = null;
  }

  /** Test connection: the first check that failed, in words, or the models and window. */
  async test(): Promise<void> {
    this.testing = true;
    this.failure = null;
    try {
      const report = await this.deps.test(this.settings(), this.model);
      this.report = report;
      if (report.ok) this.model = report.model;
      else this.failure = { ...describeError(report.error) };
    } catch (error) {
      this.report = null;
      this.failure = describeError(error);
    } finally {
      this.testing = false;
    }
  }

  /** Saves the server in this browser and loads the picked model on it. */
  async use(): Promise<boolean> {
    if (!this.model) return false;
    this.deps.device.set(ENDPOINT_SETTINGS_KEY, { ...this.settings(), model: this.model });
    return this.deps.use(`${SERVER_MODEL_PREFIX}${this.model}`);
  }
}
