import { describe, expect, it, vi } from 'vitest';
import { openDocumentSource } from '../../adapters/documents/open-document-source';
import {
  DocumentWorkerClient,
  openWorkerDocumentSource,
} from '../../adapters/documents/worker-document-source';
import type { DocumentApi } from '../../rpc/document-api';
import { RpcClient } from '../../rpc/rpc-client';
import type { PdfjsLib } from '../../adapters/documents/parse-pdf';
import { createAgentRecord } from '../../core/agent/create-agent-record';
import type { Embedder } from '../../core/ports/embedder';
import { CounterIds } from '../../testing/counter-ids';
import { FixedClock } from '../../testing/fixed-clock';
import { InMemorySearch } from '../../testing/in-memory-search';
import { InMemoryStore } from '../../testing/in-memory-store';
import { MemoryTurnLock } from '../../testing/memory-turn-lock';
import { DocumentsState, type ImportFile, type ImportStage } from './documents.svelte';

const AGENT = 'a1';

/** Letter counts in 8 buckets; `onBatch` runs before each batch (to cancel mid-import). */
function fakeEmbedder(modelId = 'fake-a', onBatch?: (batch: number) => void): Embedder {
  let batches = 0;
  const embed = (text: string): Float32Array => {
    const v = new Float32Array(8);
    for (const ch of text) v[(ch.codePointAt(0) ?? 0) % 8]! += 1;
    return v;
  };
  return {
    modelId,
    dimension: 8,
    async embedPassages(texts) {
      onBatch?.(batches++);
      return texts.map(embed);
    },
    async embedQuery(text) {
      return embed(text);
    },
  };
}

const noPdf = (): Promise<PdfjsLib> => Promise.reject(new Error('no pdf.js in this test'));

async function setup(
  embedder: Embedder | null = fakeEmbedder(),
  store = new InMemoryStore(),
  lock?: MemoryTurnLock,
) {
  if ((await store.getAgent(AGENT)) === undefined) {
    await store.apply(createAgentRecord({ id: AGENT, name: 'Ada', now: 1 }).changes);
  }
  const search = new InMemorySearch(store);
  const state = new DocumentsState({
    store,
    search,
    embedder,
    clock: new FixedClock(),
    ids: new CounterIds(),
    open: (file) =>
      openDocumentSource(file.blob, file.name, {
        pdfjs: noPdf,
        ...(file.asText ? { format: 'text' as const } : {}),
      }),
    ...(lock ? { lock } : {}),
  });
  return { store, search, state };
}

function textFile(name: string, text: string): ImportFile {
  return { blob: new Blob([text], { type: 'text/plain' }), name };
}

const long = Array.from(
  { length: 200 },
  (_, i) => `Paragraph ${i} is about the harbour, its boats and the tides, number ${i}.`,
).join('\n\n');

const stageOf = (state: DocumentsState, id: string): ImportStage | undefined =>
  state.jobs.find((j) => j.id === id)?.stage;

describe('DocumentsState', () => {
  it('X178: when the document worker cannot start, the file imports on the page and the state says so', async () => {
    const { store, search } = await setup();
    const dead = new RpcClient<DocumentApi>(() => ({
      endpoint: {
        postMessage: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
      },
      onCrash: () => {},
      terminate: () => {},
    }));
    const ref: { state?: DocumentsState } = {};
    const worker = new DocumentWorkerClient(dead, {
      startMs: 10,
      onUnavailable: () => ref.state?.noteReadingOnPage(),
    });
    const state = new DocumentsState({
      store,
      search,
      embedder: null,
      clock: new FixedClock(),
      ids: new CounterIds(),
      open: (file) => openWorkerDocumentSource(file.blob, file.name, { pdfjs: noPdf, worker }),
    });
    ref.state = state;
    expect(state.readingOnPage).toBe(false);
    const [id] = state.importFiles(AGENT, [textFile('a.txt', 'Lamp oil is kept in the cellar.')]);
    await state.idle();
    expect(stageOf(state, id!)?.type).toBe('indexed');
    expect(state.readingOnPage).toBe(true);
  });

  it('X179: parse progress shows as a stage, at most one update per whole percent', async () => {
    const { store, search } = await setup(null);
    const shown: unknown[] = [];
    const ref: { state?: DocumentsState; id?: string } = {};
    const state = new DocumentsState({
      store,
      search,
      embedder: null,
      clock: new FixedClock(),
      ids: new CounterIds(),
      open: (file) => {
        const page = openDocumentSource(file.blob, file.name, { pdfjs: noPdf });
        return {
          ...page,
          read: async (onProgress, signal) => {
            const read = await page.read(onProgress, signal);
            return {
              ...read,
              parseChunked: async (sizes, onParse) => {
                for (let k = 0; k <= 1_000; k += 1) {
                  onParse({ doneChars: k, totalChars: 1_000 });
                  const stage = ref.state!.jobs.find((j) => j.id === ref.id)?.stage;
                  if (shown.at(-1) !== stage) shown.push(stage);
                }
                const chunks = [
                  { index: 0, text: 'Lamp oil.', start: 0, end: 9, headingPath: [], tokens: 4 },
                ];
                return {
                  title: 'a',
                  mimeType: 'text/plain',
                  count: 1,
                  slice: async (from, to) => chunks.slice(from, to),
                  release: () => {},
                };
              },
            };
          },
        };
      },
    });
    ref.state = state;
    [ref.id] = state.importFiles(AGENT, [textFile('a.txt', 'Lamp oil.')]);
    await state.idle();
    expect(shown.length).toBe(101);
    expect(shown.at(50)).toEqual({ type: 'parsing', doneChars: 500, totalChars: 1_000 });
    expect(stageOf(state, ref.id!)?.type).toBe('indexed');
  });

  it('U130/U133: queued files import one at a time, passing through embedding, and end indexed', async () => {
    const seen: string[] = [];
    const ref: { state?: DocumentsState } = {};
    const { state } = await setup(
      fakeEmbedder('fake-a', () => seen.push(ref.state!.jobs.map((j) => j.stage.type).join(','))),
    );
    ref.state = state;
    const ids = state.importFiles(AGENT, [
      textFile('a.txt', 'Lamp oil is kept in the cellar.'),
      textFile('b.md', '# Boats\n\nThe blue boat is moored at the north pier.'),
    ]);
    expect(state.importing(AGENT)).toBe(true);
    await state.idle();
    expect(ids.map((id) => stageOf(state, id)?.type)).toEqual(['indexed', 'indexed']);
    // While the first file embedded, the second was still waiting: one import at a time.
    expect(seen[0]).toMatch(/^(chunked|embedding),queued$/);
    expect(state.importing(AGENT)).toBe(false);
  });

  it('U131: an unsupported file fails at once and names itself; the others still import', async () => {
    const { state, store } = await setup();
    const [png, txt] = state.importFiles(AGENT, [
      { blob: new Blob([new Uint8Array([1, 2, 3])], { type: 'image/png' }), name: 'photo.png' },
      textFile('ok.txt', 'A line of text.'),
    ]);
    const failed = stageOf(state, png!);
    expect(failed?.type).toBe('failed');
    expect(failed?.type === 'failed' && failed.what).toContain('photo.png');
    await state.idle();
    expect(stageOf(state, txt!)?.type).toBe('indexed');
    expect(await store.listDocuments(AGENT)).toHaveLength(1);
  });

  it('U160: without an embedding model a file still imports, searchable by its words', async () => {
    const { state, store, search } = await setup(null);
    expect(state.byMeaning).toBe(false);
    const [id] = state.importFiles(AGENT, [textFile('a.txt', 'The lamp oil is in the cellar.')]);
    await state.idle();
    expect(stageOf(state, id!)?.type).toBe('indexed');
    expect(await store.listDocuments(AGENT)).toHaveLength(1);
    const found = await search.search({
      agentId: AGENT,
      text: 'cellar',
      kinds: ['passage'],
      mode: 'lexical',
      page: 1,
      pageSize: 10,
    });
    expect(found.hits).toHaveLength(1);
  });

  it('A25: the "document imported" note goes to the chat that was open when the file was queued', async () => {
    const { store, search } = await setup(null);
    const state = new DocumentsState({
      store,
      search,
      embedder: null,
      clock: new FixedClock(),
      ids: new CounterIds(),
      open: (file) => openDocumentSource(file.blob, file.name, { pdfjs: noPdf }),
      conversationFor: (agentId) => (agentId === AGENT ? 'trip' : undefined),
    });
    state.importFiles(AGENT, [textFile('a.txt', 'The lamp oil is in the cellar.')]);
    await state.idle();
    const events = (await store.queryMessages(AGENT)).filter((m) => m.role === 'event');
    expect(events.map((m) => m.conversationId)).toEqual(['trip']);
  });

  it('U132: the same bytes again are recognised and add nothing; pasted text becomes a note', async () => {
    const { state, store } = await setup();
    state.importFiles(AGENT, [textFile('a.txt', 'Lamp oil is kept in the cellar.')]);
    const [again] = state.importFiles(AGENT, [
      textFile('copy.txt', 'Lamp oil is kept in the cellar.'),
    ]);
    await state.idle();
    const stage = stageOf(state, again!);
    expect(stage?.type).toBe('duplicate');
    expect(stage?.type === 'duplicate' && stage.title).toBe('a');
    const [note] = state.importText(AGENT, '# Not a heading\nPasted words.', 'Shopping');
    await state.idle();
    expect(stageOf(state, note!)?.type).toBe('indexed');
    const docs = await store.listDocuments(AGENT);
    expect(docs.map((d) => [d.title, d.mimeType]).sort()).toEqual([
      ['Shopping', 'text/plain'],
      ['a', 'text/plain'],
    ]);
  });

  it('U134: Cancel during embedding leaves no document and no passage behind', async () => {
    let jobId = '';
    const ref: { state?: DocumentsState } = {};
    const setupResult = await setup(
      fakeEmbedder('fake-a', (batch) => {
        if (batch === 0) ref.state!.cancel(jobId);
      }),
    );
    const state = setupResult.state;
    ref.state = state;
    [jobId] = state.importFiles(AGENT, [textFile('long.txt', long)]) as [string];
    await state.idle();
    expect(stageOf(state, jobId)?.type).toBe('cancelled');
    expect(await setupResult.store.listDocuments(AGENT)).toHaveLength(0);
    expect(await setupResult.store.countPassages(AGENT)).toBe(0);
  });

  it('U134: a queued import cancelled before it starts never runs', async () => {
    const { state, store } = await setup();
    const [first, second] = state.importFiles(AGENT, [
      textFile('a.txt', 'first file'),
      textFile('b.txt', 'second file'),
    ]);
    state.cancel(second!);
    expect(stageOf(state, second!)?.type).toBe('cancelled');
    await state.idle();
    expect(stageOf(state, first!)?.type).toBe('indexed');
    expect((await store.listDocuments(AGENT)).map((d) => d.title)).toEqual(['a']);
    state.clearFinished();
    expect(state.jobs).toEqual([]);
  });

  it('U134: delete cascades to passages and the search index', async () => {
    const { state, store, search } = await setup();
    state.importFiles(AGENT, [textFile('a.txt', 'The red cans hold paraffin.')]);
    await state.idle();
    const [doc] = await store.listDocuments(AGENT);
    const query = {
      agentId: AGENT,
      text: 'paraffin',
      kinds: ['passage' as const],
      mode: 'lexical' as const,
      page: 1,
      pageSize: 5,
    };
    expect((await search.search(query)).total).toBe(1);
    expect(await state.remove(doc!.id)).toBe(true);
    expect(await store.listDocuments(AGENT)).toHaveLength(0);
    expect(await store.countPassages(AGENT)).toBe(0);
    expect((await search.search(query)).total).toBe(0);
    expect(await state.remove(doc!.id)).toBe(false);
    expect(state.error?.code).toBe('not_found');
  });

  it('U135: after an embedding-model change the document is listed stale until re-embedded', async () => {
    const first = await setup(fakeEmbedder('fake-a'));
    first.state.importFiles(AGENT, [textFile('a.txt', long)]);
    await first.state.idle();
    const [doc] = await first.store.listDocuments(AGENT);
    expect(await first.state.stale(AGENT)).toEqual([]);
    const { state, store } = await setup(fakeEmbedder('fake-b'), first.store);
    expect((await state.stale(AGENT)).map((d) => d.id)).toEqual([doc!.id]);
    expect(await state.reembed(doc!.id)).toBe(true);
    expect(state.reembedding).toEqual({});
    expect(await state.stale(AGENT)).toEqual([]);
    const passages = await store.queryPassages(AGENT, { documentId: doc!.id });
    expect(new Set(passages.map((p) => p.embeddingModel))).toEqual(new Set(['fake-b']));
  });

  it('U135/D39: the sweep removes unfinished imports, but never while this tab imports', async () => {
    const { state, store } = await setup();
    await store.apply({
      documents: [
        {
          id: 'doc_left',
          agentId: AGENT,
          title: 'left over',
          mimeType: 'text/plain',
          bytes: 10,
          contentHash: 'x',
          status: 'embedding',
          passages: 4,
          embedded: 2,
          at: 1,
        },
      ],
    });
    state.importFiles(AGENT, [textFile('a.txt', 'text')]);
    expect(await state.sweep(AGENT)).toEqual([]);
    await state.idle();
    expect(await state.sweep(AGENT)).toEqual(['doc_left']);
    expect((await store.listDocuments(AGENT)).map((d) => d.title)).toEqual(['a']);
  });

  it('D41: a sweep in another tab leaves an import in progress alone, and sweeps once it is done', async () => {
    // Two tabs on one agent: one store and one lock manager, as IndexedDB and Web Locks are.
    const store = new InMemoryStore();
    const lock = new MemoryTurnLock();
    let unblock!: () => void;
    const gate = new Promise<void>((r) => (unblock = r));
    // The importing tab's embedder stalls mid-import, once the first slice of passages (and so
    // the document row, still unfinished) is written.
    const stalling = fakeEmbedder();
    const embed = stalling.embedPassages.bind(stalling);
    stalling.embedPassages = async (texts) => {
      if ((await store.listDocuments(AGENT)).length > 0) await gate;
      return embed(texts);
    };
    const importing = await setup(stalling, store, lock);
    const other = await setup(fakeEmbedder(), store, lock);
    const longer = Array.from({ length: 15 }, () => long).join('\n\n');
    importing.state.importFiles(AGENT, [textFile('long.txt', longer)]);
    await vi.waitFor(async () => expect(await store.listDocuments(AGENT)).toHaveLength(1));
    expect((await store.listDocuments(AGENT))[0]?.status).not.toBe('indexed');
    // The other tab opens the agent and sweeps: the unfinished row belongs to a live import.
    expect(await other.state.sweep(AGENT)).toEqual([]);
    unblock();
    await importing.state.idle();
    const [doc] = await store.listDocuments(AGENT);
    expect(doc?.status).toBe('indexed');
    // With no import running anywhere, the sweep is free to run (and finds nothing left over).
    expect(await other.state.sweep(AGENT)).toEqual([]);
    expect(await lock.acquire('import:' + AGENT)).not.toBeNull();
  });
});
