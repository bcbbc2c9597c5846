/**
 * Persistent storage, asked for when it matters (P20–P23, ADR 0132). IndexedDB is Loci's only
 * disk and a browser under storage pressure evicts a best-effort origin whole, so Loci asks the
 * browser to keep its data at the moments a user starts to have something to lose: the first
 * saved memory (an agent created, a reply stored), the first document, the first model download,
 * and installing the app. Each moment asks at most once on this device (Firefox shows a prompt;
 * asking on every save would nag); the button on the storage dashboard always asks.
 */
import type { DeviceSettings } from '../../core/ports/device-settings';
import type { PersistState, StorageStatusSource } from '../../core/ports/storage-status';
import type { Clock } from '../../core/ports/clock';
import type { EpochMs } from '../../core/units';

/** Why Loci asked. */
export type PersistReason = 'memory' | 'document' | 'model' | 'install' | 'user';

/** What this device remembers about asking. */
export interface PersistRecord {
  /** When each moment asked (at most once each). */
  asked: Partial<Record<PersistReason, EpochMs>>;
  /** The browser's last answer, and when and why it was asked. */
  last?: { state: PersistState; reason: PersistReason; at: EpochMs };
}

const KEY = 'storage.persistence';

export class PersistenceState {
  /** What the browser says now. */
  state = $state<PersistState>('unknown');
  record = $state.raw<PersistRecord>({ asked: {} });

  private asking: Promise<PersistState> | null = null;

  constructor(
    private readonly deps: { status: StorageStatusSource; device: DeviceSettings; clock: Clock },
  ) {
    this.record = deps.device.get<PersistRecord>(KEY) ?? { asked: {} };
  }

  /** Reads whether storage is persistent now (the browser may have changed its mind). */
  async refresh(): Promise<PersistState> {
    const report = await this.deps.status.report();
    this.state =
      report.persisted === true
        ? 'persisted'
        : report.persisted === false
          ? 'best_effort'
          : 'unknown';
    return this.state;
  }

  /**
   * Asks for persistent storage because of `reason`, unless storage is persistent already or
   * this moment asked before on this device. Resolves with the state afterwards.
   */
  async ensure(reason: Exclude<PersistReason, 'user'>): Promise<PersistState> {
    if ((await this.refresh()) === 'persisted' || this.record.asked[reason] !== undefined) {
      return this.state;
    }
    return this.ask(reason);
  }

  /** Asks now (the dashboard's button, or a moment that matters); one request at a time. */
  ask(reason: PersistReason = 'user'): Promise<PersistState> {
    this.asking ??= this.deps.status
      .persist()
      .then((state) => {
        const at = this.deps.clock.now();
        this.record = {
          asked: { ...this.record.asked, [reason]: at },
          last: { state, reason, at },
        };
        this.deps.device.set(KEY, this.record);
        this.state = state;
        return state;
      })
      .finally(() => {
        this.asking = null;
      });
    return this.asking;
  }
}
