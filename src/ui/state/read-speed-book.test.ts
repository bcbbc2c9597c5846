import { describe, expect, it } from 'vitest';
import type { Message } from '../../core/model';
import { ReadSpeedBook } from './read-speed-book';

function deviceSettings(initial: Record<string, unknown> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    get: <T>(key: string) => data.get(key) as T | undefined,
    set: (key: string, value: unknown) => void data.set(key, structuredClone(value)),
  };
}

const timed = (id: string, model: string, readTokens: number, readMs: number) =>
  ({ id, role: 'assistant', text: 'ok', stats: { model, readTokens, readMs } }) as Message;

describe('ReadSpeedBook (A43)', () => {
  it('remembers the speed across chats and reloads of the page, each reply once', () => {
    const settings = deviceSettings();
    const book = new ReadSpeedBook(settings);
    expect(book.speed('qwen')).toBeNull();
    book.note([
      timed('a', 'qwen', 1300, 100_000),
      { id: 'u', role: 'user', text: 'hi' } as Message,
      { id: 'b', role: 'assistant', text: 'no stats' } as Message,
    ]);
    // The same reply seen again (a refresh) counts once.
    book.note([timed('a', 'qwen', 1300, 100_000)]);
    const reloaded = new ReadSpeedBook(settings);
    expect(reloaded.speed('qwen')).toEqual({ tokensPerSecond: 13, samples: 1 });
    expect(reloaded.speed('llama')).toBeNull();
  });

  it('keeps the latest replies only, and drops what it cannot read', () => {
    const settings = deviceSettings({
      readSamples: [{ id: 'x', model: 'qwen', readTokens: 'many', readMs: 5 }, null],
    });
    const book = new ReadSpeedBook(settings);
    expect(book.speed('qwen')).toBeNull();
    book.note(Array.from({ length: 40 }, (_, i) => timed(`m${i}`, 'qwen', 1000, 50_000)));
    expect((settings.data.get('readSamples') as unknown[]).length).toBe(32);
    expect(book.speed('qwen')).toEqual({ tokensPerSecond: 20, samples: 8 });
  });
});
