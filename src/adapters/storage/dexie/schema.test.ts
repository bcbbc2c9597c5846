import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { CURRENT_SCHEMA_VERSION, LociDb, SCHEMA_VERSIONS } from './loci-db';
import { DexieMemoryStore } from './dexie-memory-store';
import { openMemoryStore } from './index';
import { sampleAgent, sampleBlock, sampleMessage } from './sample-records';

describe('schema migrations', () => {
  it('S11: versions are strictly increasing and the current one is the last', () => {
    const versions = SCHEMA_VERSIONS.map((v) => v.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(CURRENT_SCHEMA_VERSION).toBe(versions[versions.length - 1]);
  });

  for (const { version } of SCHEMA_VERSIONS) {
    it(`S11: a database written at v${version} opens at the current version with its data`, async () => {
      const name = `migrate-from-v${version}-${Date.now()}`;
      const old = new DexieMemoryStore(new LociDb(name, version));
      await old.db.open();
      await old.apply({
        agents: [sampleAgent('a')],
        blocks: [sampleBlock('a', 'human', 'Name: Ana')],
        messages: [sampleMessage('a', 'm1', 'hello', 1), sampleMessage('a', 'm2', 'bye', 2)],
        inContext: { ids: [], inContext: false },
      });
      await old.apply({ inContext: { ids: ['m1'], inContext: false } });
      old.close();

      const store = await openMemoryStore(name);
      expect(store.db.verno).toBe(CURRENT_SCHEMA_VERSION);
      expect((await store.getBlock('a', 'human'))?.value).toBe('Name: Ana');
      expect((await store.queryMessages('a', { inContext: true })).map((m) => m.id)).toEqual([
        'm2',
      ]);
      expect(await store.lastSeq('a')).toBe(2);
      store.close();
    });
  }
});
