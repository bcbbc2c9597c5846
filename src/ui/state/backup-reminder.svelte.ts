/**
 * The backup reminder the user can schedule when the browser keeps Loci's data only on a best
 * effort (P22, P23, ADR 0132): every week or month, counted from this device's last full backup;
 * "Later" waits a day. Kept per device (`DeviceSettings`): a backup made on another device does
 * not protect this one's data.
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
  lastBackupAt?: EpochMs;
  snoozedUntil?: EpochMs;
}

const KEY = 'backup.reminder';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether the reminder is due at `now`. */
export function reminderDue(record: ReminderRecord, now: EpochMs): boolean {
  if (record.everyDays === 0) return false;
  if (record.snoozedUntil !== undefined && now < record.snoozedUntil) return false;
  // Never backed up on this device: there is nothing to fall back on, so remind at once.
  if (record.lastBackupAt === undefined) return true;
  return now - record.lastBackupAt >= record.everyDays * DAY_MS;
}

export class BackupReminderState {
  record = $state.raw<ReminderRecord>({ everyDays: 0 });

  constructor(private readonly deps: { device: DeviceSettings; clock: Clock }) {
    this.record = deps.device.get<ReminderRecord>(KEY) ?? { everyDays: 0 };
  }

  /** Whether to show the reminder now. */
  get due(): boolean {
    return reminderDue(this.record, this.deps.clock.now());
  }

  schedule(everyDays: ReminderDays): void {
    this.save({
      ...this.record,
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
