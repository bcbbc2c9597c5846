import { describe, expect, it } from 'vitest';
import { memoryDeviceSettings } from '../../adapters/storage/device-settings';
import { BackupReminderState, reminderDue } from './backup-reminder.svelte';

const DAY = 24 * 60 * 60 * 1000;

describe('backup reminder (P22, P23)', () => {
  it('P22: off, never due; switched on, it is due at once without a backup, then on its schedule', () => {
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

  it('P36: until the user chooses, it is on weekly from the first use: not on day one, on day seven, and the first-use day survives a reload', () => {
    let now = 100 * DAY;
    const device = memoryDeviceSettings();
    const first = new BackupReminderState({ device, clock: { now: () => now } });
    expect(first.record.everyDays).toBe(7);
    expect(first.due).toBe(false);
    now += 6 * DAY;
    const later = new BackupReminderState({ device, clock: { now: () => now } });
    expect(later.due).toBe(false);
    now += DAY;
    expect(later.due).toBe(true);
    // A backup counts as usual; choosing a schedule makes it the user's (due at once, as P22).
    later.backedUp();
    expect(later.due).toBe(false);
    const chosen = new BackupReminderState({
      device: memoryDeviceSettings(),
      clock: { now: () => now },
    });
    chosen.schedule(30);
    expect(chosen.record.fromFirstUse).toBeUndefined();
    expect(chosen.due).toBe(true);
  });
});
