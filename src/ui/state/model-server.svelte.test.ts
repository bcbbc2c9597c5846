import { describe, expect, it } from 'vitest';
import { memoryDeviceSettings } from '../../adapters/storage/device-settings';
import { AppError } from '../../core/errors';
import type { ConnectionReport, EndpointSettings } from '../../rpc/endpoint-types';
import { ENDPOINT_SETTINGS_KEY, ModelServerState, SERVER_PRESETS } from './model-server.svelte';

function setup(report: ConnectionReport) {
  const device = memoryDeviceSettings();
  const tested: { settings: EndpointSettings; model: string | null }[] = [];
  const used: string[] = [];
  const state = new ModelServerState({
    device,
    test: async (settings, model) => {
      tested.push({ settings, model });
      return report;
    },
    use: async (modelId) => {
      used.push(modelId);
      return true;
    },
  });
  return { device, state, tested, used };
}

const ok: ConnectionReport = {
  ok: true,
  model: 'llama3.1:8b',
  models: ['llama3.1:8b', 'qwen2.5:7b'],
  contextWindow: 8192,
  windowSource: 'ollama /api/show',
  tokenize: false,
};

describe('ModelServerState (U280–U282)', () => {
  it('a preset fills the address; Test connection sends the trimmed settings and picks the model', async () => {
    const { state, tested } = setup(ok);
    state.preset(SERVER_PRESETS[0]!);
    expect(state.baseUrl).toBe('http://127.0.0.1:11434/v1');
    state.apiKey = '  sk-1  ';
    await state.test();
    expect(tested[0]?.settings).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'sk-1' });
    expect(state.model).toBe('llama3.1:8b');
    expect(state.failure).toBeNull();
  });

  it('a failed test shows its copy and the server’s own words', async () => {
    const { state } = setup({
      ok: false,
      models: null,
      error: new AppError(
        'endpoint_auth',
        'The model server refused the API key (HTTP 401).',
      ).toWire(),
    });
    state.baseUrl = 'http://127.0.0.1:8080/v1';
    await state.test();
    expect(state.failure?.code).toBe('endpoint_auth');
    expect(state.failure?.detail).toContain('HTTP 401');
  });

  it('Use this model keeps the server in device settings only and loads server:<model>', async () => {
    const { state, device, used } = setup(ok);
    state.baseUrl = 'http://127.0.0.1:11434/v1';
    state.apiKey = 'secret';
    await state.test();
    expect(state.saved()).toBeNull();
    await state.use();
    expect(used).toEqual(['server:llama3.1:8b']);
    expect(device.get(ENDPOINT_SETTINGS_KEY)).toMatchObject({
      apiKey: 'secret',
      model: 'llama3.1:8b',
    });
    expect(state.saved()).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', apiKey: 'secret' });
    // A new visit reads the same settings back.
    const again = new ModelServerState({ device, test: async () => ok, use: async () => true });
    expect(again.baseUrl).toBe('http://127.0.0.1:11434/v1');
    expect(again.model).toBe('llama3.1:8b');
  });
});
