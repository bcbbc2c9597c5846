/**
 * How fast this device reads, remembered across chats and reloads (A43): the timed replies the
 * chat has shown, kept as device settings (the speed is the device's, so it never goes into a
 * backup), the latest {@link KEPT} of them. A new chat then knows the speed from its first turn.
 */
import { readSpeed, type ReadSpeed } from '../../core/context/read-speed';
import type { Message, ReplyStats } from '../../core/model';
import type { DeviceSettings } from '../../core/ports/device-settings';

const KEY = 'readSamples';
/** Enough for eight samples of each of a few models. */
const KEPT = 32;

interface Sample {
  id: string;
  model: string;
  readTokens: number;
  readMs: number;
}

export interface ReadSpeedSource {
  /** Notes the timed replies among `messages` (each once). */
  note(messages: readonly Message[]): void;
  /** This device's read speed for `model`, or null before a timed reply of it. */
  speed(model: string): ReadSpeed | null;
}

function isSample(value: unknown): value is Sample {
  const s = value as Partial<Sample> | null;
  return (
    typeof s?.id === 'string' &&
    typeof s.model === 'string' &&
    typeof s.readTokens === 'number' &&
    Number.isFinite(s.readTokens) &&
    typeof s.readMs === 'number' &&
    Number.isFinite(s.readMs)
  );
}

export class ReadSpeedBook implements ReadSpeedSource {
  private samples: Sample[];

  constructor(private readonly settings: DeviceSettings) {
    const saved = settings.get<unknown>(KEY);
    // What another version or a hand edit left is read defensively: a bad entry is dropped.
    this.samples = Array.isArray(saved) ? saved.filter(isSample).slice(-KEPT) : [];
  }

  note(messages: readonly Message[]): void {
    const known = new Set(this.samples.map((s) => s.id));
    const fresh: Sample[] = [];
    for (const m of messages) {
      const { model, readTokens, readMs } = m.stats ?? {};
      if (known.has(m.id) || !model || readTokens === undefined || readMs === undefined) continue;
      fresh.push({ id: m.id, model, readTokens, readMs });
    }
    if (fresh.length === 0) return;
    this.samples = [...this.samples, ...fresh].slice(-KEPT);
    this.settings.set(KEY, this.samples);
  }

  speed(model: string): ReadSpeed | null {
    const stats: ReplyStats[] = this.samples.map(({ model: m, readTokens, readMs }) => ({
      model: m,
      readTokens,
      readMs,
    }));
    return readSpeed(stats, model);
  }
}
