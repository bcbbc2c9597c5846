/**
 * The backup reminder the user can schedule when the browser keeps Loci's data only on a best
 * effort (P22, P23, ADR 0132): every week or month, counted from this device's last full backup;
 * "Later" waits a day. Kept per device (`DeviceSettings`): a backup made on another device does
 * not protect this one's data. Until the user chooses, it is on, weekly, counted from the first
 * use on this device (P36, ADR 0208): a new user is not asked on day one, and nobody whose
 * browser may delete their data goes months without being asked.
 */
import type { DeviceSettings } from '../../core/ports/device-settings';
import type { Clock } from '../../core/ports/clock';
import type { EpochMs } from '../../core/units';

/** Days between reminders; 0 is off. */
export type ReminderDays = 0 | 7 | 30;

export interface ReminderRecord {
  everyDays: ReminderDays;
  /** When the reminder was switched on (counts as the start when there was no backup yet). */
  since?: EpochMs;
  /** The default, not the user's choice: without a backup it waits `everyDays` from `since`. */
  fromFirstUse?: true;
  lastBackupAt?: EpochMs;
  snoozedUntil?: EpochMs;
}

const KEY = 'backup.reminder';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether the reminder is due at `now`. */
export function reminderDue(record: ReminderRecord, now: EpochMs): boolean {
  if (record.everyDays === 0) return false;
  if (record.snoozedUntil !== undefined && now < record.snoozedUntil) return false;
  // Never backed up on this device: there is nothing to fall back on, so remind at once — unless
  // this is the default, which first waits a period from the first use (P36).
  if (record.lastBackupAt === undefined) {
    return record.fromFirstUse !== true || now - (record.since ?? now) >= record.everyDays * DAY_MS;
  }
  return now - record.lastBackupAt >= record.everyDays * DAY_MS;
}

export class BackupReminderState {
  record = $state.raw<ReminderRecord>({ everyDays: 0 });

  constructor(private readonly deps: { device: DeviceSettings; clock: Clock }) {
    const stored = deps.device.get<ReminderRecord>(KEY);
    if (stored) this.record = stored;
    else this.save({ everyDays: 7, since: deps.clock.now(), fromFirstUse: true });
  }

  /** Whether to show the reminder now. */
  get due(): boolean {
    return reminderDue(this.record, this.deps.clock.now());
  }

  schedule(everyDays: ReminderDays): void {
    const { fromFirstUse: _default, ...record } = this.record;
    this.save({
      ...record,
      everyDays,
      since: everyDays === 0 ? undefined : this.deps.clock.now(),
      snoozedUntil: undefined,
    });
  }

  /** A full backup was saved on this device. */
  backedUp(): void {
    this.save({ ...this.record, lastBackupAt: this.deps.clock.now(), snoozedUntil: undefined });
  }

  /** "Later": ask again tomorrow. */
  snooze(): void {
    this.save({ ...this.record, snoozedUntil: this.deps.clock.now() + DAY_MS });
  }

  private save(record: ReminderRecord): void {
    this.record = record;
    this.deps.device.set(KEY, record);
  }
}
