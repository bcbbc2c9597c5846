import 'fake-indexeddb/auto';
import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../core/errors';
import { openMemoryStore } from './index';
import { CURRENT_SCHEMA_VERSION, SCHEMA_VERSIONS } from './loci-db';
import { sampleAgent } from './sample-records';

/** A database as a later Loci would leave it: every current table, plus one this build lacks. */
async function newerDatabase(name: string): Promise<Dexie> {
  const db = new Dexie(name);
  const newest = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1]!;
  db.version(CURRENT_SCHEMA_VERSION + 1).stores({ ...newest.stores, futureTable: 'id' });
  await db.open();
  await db.table('agents').put(sampleAgent('a'));
  await db.table('futureTable').put({ id: 'f1' });
  return db;
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    return AppError.from(error);
  }
  throw new Error('expected a refusal');
}

describe('a newer database on this device (ADR 0150)', () => {
  it('S20: opening refuses with storage_newer_version and changes nothing', async () => {
    const name = `newer-${Date.now()}`;
    const newer = await newerDatabase(name);
    const before = newer.verno;
    newer.close();

    const error = await refusal(openMemoryStore(name));
    expect(error.code).toBe('storage_newer_version');

    const check = new Dexie(name);
    await check.open(); // dynamic mode: opens whatever is installed
    expect(check.verno).toBe(before);
    expect(await check.table('futureTable').count()).toBe(1);
    expect(await check.table('agents').count()).toBe(1);
    check.close();
  });

  it('S20: without indexedDB.databases() the check after open still refuses', async () => {
    const name = `newer-nolist-${Date.now()}`;
    (await newerDatabase(name)).close();
    const factory = indexedDB as unknown as { databases?: unknown };
    const databases = factory.databases;
    factory.databases = undefined;
    try {
      expect((await refusal(openMemoryStore(name))).code).toBe('storage_newer_version');
    } finally {
      factory.databases = databases;
    }
  });

  it('S21: a tab whose database another tab upgrades stops for good with storage_newer_version', async () => {
    const name = `upgraded-elsewhere-${Date.now()}`;
    const store = await openMemoryStore(name);
    await store.apply({ agents: [sampleAgent('a')] });

    // The other tab's open is not blocked: this connection steps aside.
    const newer = await newerDatabase(name);
    expect((await refusal(store.listAgents())).code).toBe('storage_newer_version');
    expect((await refusal(store.apply({ agents: [sampleAgent('b')] }))).code).toBe(
      'storage_newer_version',
    );
    expect(await newer.table('agents').count()).toBe(1);
    newer.close();
  });
});
