import { describe, expect, it } from 'vitest';
import { memoryDeviceSettings } from '../../adapters/storage/device-settings';
import { BackupReminderState, reminderDue } from './backup-reminder.svelte';

const DAY = 24 * 60 * 60 * 1000;

describe('backup reminder (P22, P23)', () => {
  it('P22: off by default; on, it is due at once without a backup, then on its schedule', () => {
    expect(reminderDue({ everyDays: 0 }, 0)).toBe(false);
    expect(reminderDue({ everyDays: 7, since: 0 }, 1)).toBe(true);
    expect(reminderDue({ everyDays: 7, since: 0, lastBackupAt: 0 }, 6 * DAY)).toBe(false);
    expect(reminderDue({ everyDays: 7, since: 0, lastBackupAt: 0 }, 7 * DAY)).toBe(true);
    expect(reminderDue({ everyDays: 30, lastBackupAt: 0 }, 29 * DAY)).toBe(false);
  });

  it('P23: "Later" waits a day; a full backup resets the count; the schedule is kept per device', () => {
    let now = 10 * DAY;
    const device = memoryDeviceSettings();
    const reminder = new BackupReminderState({ device, clock: { now: () => now } });
    reminder.schedule(7);
    expect(reminder.due).toBe(true);
    reminder.snooze();
    expect(reminder.due).toBe(false);
    now += DAY;
    expect(reminder.due).toBe(true);
    reminder.backedUp();
    expect(reminder.due).toBe(false);
    now += 7 * DAY;
    expect(reminder.due).toBe(true);
    const reloaded = new BackupReminderState({ device, clock: { now: () => now } });
    expect(reloaded.record).toEqual(reminder.record);
    reloaded.schedule(0);
    expect(reloaded.due).toBe(false);
  });
});
