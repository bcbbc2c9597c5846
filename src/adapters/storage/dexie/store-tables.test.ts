import 'fake-indexeddb/auto';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { BackupTables, DecodedBackup } from '../../../core/backup/backup-format';
import { TIER_NAMES, type TierName } from '../../../core/ports/memory-store';
import {
  AGENT_OWNED_TABLES,
  LARGE_TABLES,
  STORE_TABLES,
  withoutTables,
  type StoreTableName,
} from '../../../core/ports/store-tables';
import type { BackupTableName } from '../../../rpc/backup-api';
import { LociDb, SCHEMA_VERSIONS } from './loci-db';

const sorted = (names: Iterable<string>) => [...names].sort();
const latest = SCHEMA_VERSIONS[SCHEMA_VERSIONS.length - 1]!;

describe('the store tables, written once (issue 38)', () => {
  it('are the tables of the newest Dexie schema, no more and no fewer', () => {
    expect(sorted(Object.keys(latest.stores))).toEqual(sorted(STORE_TABLES));
  });

  it('are the tables a freshly opened database has', async () => {
    const db = new LociDb(`store-tables-${Date.now()}`);
    await db.open();
    try {
      expect(sorted(db.tables.map((t) => t.name))).toEqual(sorted(STORE_TABLES));
    } finally {
      db.close();
    }
  });

  it('are the tables of a backup file', () => {
    expectTypeOf<keyof BackupTables>().toEqualTypeOf<StoreTableName>();
    expectTypeOf<keyof DecodedBackup['tables']>().toEqualTypeOf<StoreTableName>();
    expectTypeOf<BackupTableName>().toEqualTypeOf<StoreTableName>();
  });

  it('list as agent-owned exactly the tables the schema indexes by agentId', () => {
    const byAgent = Object.entries(latest.stores)
      .filter(([, indexes]) => /(^|[\s,[+])agentId([\s,\]+]|$)/.test(indexes))
      .map(([name]) => name);
    expect(sorted(AGENT_OWNED_TABLES)).toEqual(sorted(byAgent));
  });

  it('derive subsets in their own order, leaving out only what is named', () => {
    expect(withoutTables(STORE_TABLES, LARGE_TABLES)).toEqual([
      'agents',
      'conversations',
      'blocks',
      'blockHistory',
      'summaries',
      'documents',
      'turns',
      'steps',
      'settings',
    ]);
    expect(TIER_NAMES).toEqual([
      'agents',
      'blocks',
      'blockHistory',
      'messages',
      'summaries',
      'passages',
      'documents',
      'turns',
      'steps',
    ]);
    expectTypeOf<TierName>().toEqualTypeOf<
      Exclude<StoreTableName, 'conversations' | 'settings' | 'vectors'>
    >();
  });
});
