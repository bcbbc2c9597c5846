import { describe, expect, it } from 'vitest';
import { memoryDeviceSettings } from '../../adapters/storage/device-settings';
import { ThemeState } from './theme.svelte';

function fakeSystem(dark: boolean) {
  const listeners: (() => void)[] = [];
  return {
    matches: dark,
    addEventListener: (_type: string, listener: () => void) => void listeners.push(listener),
    flip(next: boolean) {
      this.matches = next;
      for (const l of listeners) l();
    },
  };
}

describe('ThemeState', () => {
  it('U162: "system" follows the system live; a choice is kept for the next start', () => {
    const settings = memoryDeviceSettings();
    const attrs: Record<string, string> = {};
    const root = { setAttribute: (name: string, value: string) => void (attrs[name] = value) };
    const system = fakeSystem(true);
    const theme = new ThemeState({ settings, root, systemDark: system });
    expect(theme.choice).toBe('system');
    expect(attrs['data-theme']).toBe('dark');
    system.flip(false);
    expect(attrs['data-theme']).toBe('light');

    theme.choose('dark');
    system.flip(false);
    expect(attrs['data-theme']).toBe('dark');
    const again = new ThemeState({ settings, root, systemDark: fakeSystem(false) });
    expect(again.choice).toBe('dark');
    expect(attrs['data-theme']).toBe('dark');
  });

  it('U162: an unreadable saved value falls back to the system', () => {
    const settings = memoryDeviceSettings();
    settings.set('theme', 'purple');
    const attrs: Record<string, string> = {};
    const theme = new ThemeState({
      settings,
      root: { setAttribute: (n, v) => void (attrs[n] = v) },
      systemDark: null,
    });
    expect(theme.choice).toBe('system');
    expect(attrs['data-theme']).toBe('light');
  });
});
