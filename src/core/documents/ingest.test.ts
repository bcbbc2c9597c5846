import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { fixturePath } from '../../adapters/documents/fixture-path';
import { openDocumentSource } from '../../adapters/documents/open-document-source';
import { loadNodePdfjs } from '../../adapters/documents/pdfjs-node';
import { LocalVectorIndex } from '../../adapters/search/local-vector-index';
import { Bm25LexicalIndex } from '../../adapters/search/bm25-lexical-index';
import { openMemoryStore, type DexieMemoryStore } from '../../adapters/storage/dexie';
import { AppError } from '../errors';
import type { Embedder } from '../ports/embedder';
import type { SearchQuery } from '../ports/memory-search';
import { createMemorySearch } from '../search/memory-search';
import { chunkDocument } from './chunk';
import { deleteDocument } from './delete-document';
import type { DocumentSource } from './document-source';
import { ingestDocument, type IngestDeps, type IngestProgress } from './ingest';
import type { ParsedDocument } from './parsed-document';
import { documentsToReembed, reembedDocument } from './reembed-document';
import { removeUnfinishedImports } from './remove-unfinished-imports';

const AGENT = 'agent-1';
const NOW = 1_800_000_000_000;

/** A deterministic embedder: letter counts in `dimension` buckets; `beforeBatch` can interfere. */
function fakeEmbedder(
  modelId = 'fake-a',
  dimension = 8,
  beforeBatch?: (batch: number) => void,
): Embedder & { batches: number } {
  const embed = (text: string): Float32Array => {
    const v = new Float32Array(dimension);
    for (const ch of text.toLowerCase()) {
      const code = ch.codePointAt(0) ?? 0;
      v[code % dimension] = (v[code % dimension] ?? 0) + 1;
    }
    return v;
  };
  return {
    modelId,
    dimension,
    batches: 0,
    async embedPassages(texts) {
      beforeBatch?.(this.batches);
      this.batches += 1;
      return texts.map(embed);
    },
    async embedQuery(text) {
      return embed(text);
    },
  };
}

/** A source over a string, parsed as one section per blank-line-separated part. */
function textSource(text: string, name = 'note.txt'): DocumentSource {
  const bytes = new TextEncoder().encode(text);
  return {
    name,
    mimeType: 'text/plain',
    bytes: bytes.byteLength,
    async read(onProgress, signal) {
      onProgress(bytes.byteLength);
      if (signal?.aborted) throw new AppError('cancelled', 'cancelled');
      return {
        contentHash: `hash-of-${text.length}-${text.slice(0, 20)}`,
        async parse(): Promise<ParsedDocument> {
          return {
            title: name,
            mimeType: 'text/plain',
            text,
            sections: [{ headingPath: [], text, start: 0, end: text.length }],
          };
        },
      };
    },
  };
}

const fixture = (name: string): DocumentSource =>
  openDocumentSource(new File([readFileSync(fixturePath(name))], name), name, {
    pdfjs: loadNodePdfjs,
  });

const longText = Array.from(
  { length: 120 },
  (_, i) => `Paragraph ${i} is about the harbour and its boats, number ${i}.`,
).join('\n\n');

const stores: DexieMemoryStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));
let dbs = 0;

async function setup(embedder: Embedder | null = fakeEmbedder()) {
  dbs += 1;
  const store = await openMemoryStore(`documents-test-${dbs}-${Date.now()}`);
  stores.push(store);
  const search = createMemorySearch({
    store,
    lexical: new Bm25LexicalIndex(),
    vectors: embedder === null ? null : new LocalVectorIndex(embedder.dimension),
    embedder,
    clock: { now: () => NOW },
    vectorStore: store,
  });
  await search.loadAgent(AGENT);
  let n = 0;
  const deps: IngestDeps = {
    store,
    search,
    embedder,
    clock: { now: () => NOW },
    ids: { next: (prefix = 'id') => `${prefix}_${(n += 1)}` },
  };
  const find = async (text: string, mode: SearchQuery['mode'] = 'lexical') =>
    (
      await search.search({
        agentId: AGENT,
        text,
        kinds: ['passage'],
        mode,
        page: 1,
        pageSize: 50,
      })
    ).hits;
  /** Everything an import could have written. */
  const footprint = async () => ({
    passages: await store.countPassages(AGENT),
    documents: (await store.listDocuments(AGENT)).length,
    messages: await store.countMessages(AGENT),
    indexed: (await find('harbour')).length + (await find('starfish')).length,
  });
  return { store, search, deps, find, footprint };
}

const EMPTY = { passages: 0, documents: 0, messages: 0, indexed: 0 };

describe('ingestDocument', () => {
  it('A22: the "document imported" event goes to the conversation it was imported from; its passages are the agent’s', async () => {
    const { store, deps, find } = await setup(null);
    await store.apply({
      conversations: [
        { id: 'conv-b', agentId: AGENT, title: 'Reading', createdAt: NOW, updatedAt: NOW },
      ],
    });
    const outcome = await ingestDocument(deps, AGENT, textSource(longText), {
      conversationId: 'conv-b',
    });
    if (outcome.type !== 'imported') throw new Error(outcome.type);
    const queue = (id: string) =>
      store.queryMessages(AGENT, { conversationId: id, inContext: true });
    expect((await queue('conv-b')).map((m) => m.id)).toEqual([outcome.event.id]);
    expect(await queue(`${AGENT}:conversation-1`)).toEqual([]);
    expect((await find('harbour')).length).toBeGreaterThan(0);
  });

  it('U160: without an embedding model a document imports, is found by its words, and is embedded once a model is chosen', async () => {
    const { store, deps, find } = await setup(null);
    const progress: IngestProgress[] = [];
    const outcome = await ingestDocument(deps, AGENT, fixture('sample.pdf'), {
      onProgress: (p) => progress.push(p),
    });
    if (outcome.type !== 'imported') throw new Error(outcome.type);
    expect(outcome.document).toMatchObject({ status: 'indexed', passages: 3, embedded: 0 });
    expect(progress.map((p) => p.type)).not.toContain('embedding');
    const stored = await store.queryPassages(AGENT, { documentId: outcome.document.id });
    expect(stored.map((p) => [p.embedding, p.embeddingModel])).toEqual([
      [null, null],
      [null, null],
      [null, null],
    ]);
    const byWords = await find('starfish');
    expect(byWords.map((h) => h.passage?.source.type)).toEqual(['document']);

    // The user picks an embedding model: the next load counts the passages and catches them up.
    const embedder = fakeEmbedder();
    const withModel = createMemorySearch({
      store,
      lexical: new Bm25LexicalIndex(),
      vectors: new LocalVectorIndex(embedder.dimension),
      embedder,
      clock: { now: () => NOW },
      vectorStore: store,
    });
    await withModel.loadAgent(AGENT);
    expect(withModel.unembedded).toBeGreaterThanOrEqual(3);
    const caught = await withModel.reembed();
    expect(caught).toMatchObject({ passages: 3, complete: true });
    const after = await store.queryPassages(AGENT, { documentId: outcome.document.id });
    for (const p of after) expect(p.embeddingModel).toBe('fake-a');
  });

  it('D30: a PDF is stored as passages with vectors, a document row, an event, and is searchable', async () => {
    const { store, deps, find } = await setup();
    const progress: IngestProgress[] = [];
    const outcome = await ingestDocument(deps, AGENT, fixture('sample.pdf'), {
      onProgress: (p) => progress.push(p),
    });
    expect(outcome.type).toBe('imported');
    if (outcome.type !== 'imported') return;
    expect(outcome.document).toMatchObject({
      title: 'Tidal Pools',
      mimeType: 'application/pdf',
      status: 'indexed',
      passages: 3,
      embedded: 3,
    });
    expect(await store.getDocument(outcome.document.id)).toEqual(outcome.document);
    const passages = await store.queryPassages(AGENT, { documentId: outcome.document.id });
    expect(passages).toHaveLength(3);
    for (const p of passages) {
      expect(p.embedding).toBeInstanceOf(Float32Array);
      expect(p.embeddingModel).toBe('fake-a');
    }
    expect(outcome.event).toMatchObject({
      role: 'event',
      inContext: true,
      text: 'Document imported (3 passages), titled "Tidal Pools". Search it with archival_memory_search.',
    });
    expect(outcome.event.seq).toBe(1);
    const hits = await find('starfish');
    expect(hits.map((h) => h.passage?.source)).toEqual([
      expect.objectContaining({ type: 'document', documentId: outcome.document.id, page: 3 }),
    ]);
    expect(progress.map((p) => p.type)).toEqual([
      'reading',
      'reading',
      'parsing',
      'chunked',
      'embedding',
      'embedding',
      'indexed',
    ]);
    expect(progress.at(-2)).toEqual({ type: 'embedding', done: 3, total: 3 });
  });

  it('X168 (item 3): an HTML <title> of 500,000 characters is stored cut to 300, and fast', async () => {
    const { store, deps } = await setup();
    const html = `<title>${'Long title '.repeat(50_000)}</title><p>The harbour at dawn.</p>`;
    const name = 'long-title.html';
    const started = performance.now();
    const outcome = await ingestDocument(
      deps,
      AGENT,
      openDocumentSource(new File([html], name, { type: 'text/html' }), name, {
        pdfjs: loadNodePdfjs,
      }),
    );
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(outcome.type).toBe('imported');
    const [doc] = await store.listDocuments(AGENT);
    expect(doc!.title).toHaveLength(300);
    expect(doc!.title.startsWith('Long title Long title')).toBe(true);
    expect(doc!.title.endsWith('…')).toBe(true);
  });

  it('D31: each passage records document, chunk, page, exact offsets and heading path', async () => {
    const embedded: string[] = [];
    const recording = fakeEmbedder();
    const { store, deps } = await setup({
      ...recording,
      embedPassages: async (texts) => {
        embedded.push(...texts);
        return recording.embedPassages(texts);
      },
    });
    const source = fixture('handbook.md');
    const outcome = await ingestDocument(deps, AGENT, source);
    if (outcome.type !== 'imported') throw new Error(outcome.type);
    const parsed = await (await source.read(() => undefined)).parse();
    const passages = await store.queryPassages(AGENT, { documentId: outcome.document.id });
    expect(passages.length).toBeGreaterThan(3);
    for (const p of passages) {
      if (p.source.type !== 'document') throw new Error('not a document passage');
      expect(parsed.text.slice(p.source.start, p.source.end)).toBe(p.text);
    }
    const fuel = passages.find((p) => p.text.includes('Paraffin'));
    expect(fuel?.source).toMatchObject({ heading: 'Lighthouse Handbook › Lamp › Fuel' });
    expect(embedded.find((t) => t.includes('Paraffin'))).toBe(
      `Lighthouse Handbook › Lamp › Fuel\n\n${fuel?.text}`,
    );
    const chunks = passages.map((p) => (p.source.type === 'document' ? p.source.chunk : -1));
    expect([...chunks].sort((a, b) => a - b)).toEqual(chunks.map((_, k) => k));
  });

  it('D32: the same bytes imported again are recognised by content hash; nothing is duplicated', async () => {
    const { store, deps } = await setup();
    const first = await ingestDocument(deps, AGENT, fixture('chinese.txt'));
    const before = await store.countPassages(AGENT);
    const again = await ingestDocument(
      deps,
      AGENT,
      openDocumentSource(
        new File([readFileSync(fixturePath('chinese.txt'))], 'renamed.txt'),
        'renamed.txt',
        { pdfjs: loadNodePdfjs },
      ),
    );
    expect(again.type).toBe('duplicate');
    if (again.type === 'duplicate' && first.type === 'imported') {
      expect(again.document.id).toBe(first.document.id);
    }
    expect(await store.countPassages(AGENT)).toBe(before);
    expect(await store.listDocuments(AGENT)).toHaveLength(1);
    expect(await store.countMessages(AGENT)).toBe(1);
    // Another agent has its own library.
    expect((await ingestDocument(deps, 'agent-2', fixture('chinese.txt'))).type).toBe('imported');
  });

  it('D33: a cancel while reading leaves nothing', async () => {
    const { deps, footprint } = await setup();
    const controller = new AbortController();
    const outcome = await ingestDocument(deps, AGENT, textSource(longText), {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.type === 'reading' && p.loadedBytes > 0) controller.abort();
      },
    });
    expect(outcome).toEqual({ type: 'cancelled' });
    expect(await footprint()).toEqual(EMPTY);
  });

  it('D33: a cancel after chunking or in the middle of embedding leaves nothing half indexed', async () => {
    for (const stage of ['chunked', 'embedding'] as const) {
      const controller = new AbortController();
      const embedder = fakeEmbedder('fake-a', 8, (batch) => {
        if (stage === 'embedding' && batch === 2) controller.abort();
      });
      const { deps, footprint } = await setup(embedder);
      const outcome = await ingestDocument(deps, AGENT, textSource(longText), {
        signal: controller.signal,
        batchSize: 4,
        onProgress: (p) => {
          if (p.type === stage && stage === 'chunked') controller.abort();
        },
      });
      expect(outcome).toEqual({ type: 'cancelled' });
      expect(await footprint()).toEqual(EMPTY);
      expect(embedder.batches).toBe(stage === 'chunked' ? 0 : 3);
    }
  });

  it('D33: an embedder failure rejects with embedder_failed and writes nothing', async () => {
    const embedder = fakeEmbedder('fake-a', 8, (batch) => {
      if (batch === 1) throw new Error('out of memory');
    });
    const { deps, footprint } = await setup(embedder);
    const error = await ingestDocument(deps, AGENT, textSource(longText), { batchSize: 4 }).catch(
      (e: unknown) => e,
    );
    expect((error as AppError).code).toBe('embedder_failed');
    expect(await footprint()).toEqual(EMPTY);
  });

  it('D33: vectors of the wrong dimension are refused before anything is written', async () => {
    const liar: Embedder = { ...fakeEmbedder('liar', 4), dimension: 8 };
    const { deps, footprint } = await setup(liar);
    const error = await ingestDocument(deps, AGENT, textSource(longText)).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('embedding_dimension_mismatch');
    expect(await footprint()).toEqual(EMPTY);
  });

  it('D30: a document with no text is document_parse_failed', async () => {
    const { deps } = await setup();
    const error = await ingestDocument(deps, AGENT, textSource('   \n\n  ')).catch(
      (e: unknown) => e,
    );
    expect((error as AppError).code).toBe('document_parse_failed');
  });

  it('D37: the host gets a chance to run between embedding batches', async () => {
    const { deps } = await setup();
    let yields = 0;
    const outcome = await ingestDocument(
      { ...deps, yieldToHost: async () => void (yields += 1) },
      AGENT,
      textSource(longText),
      { batchSize: 4 },
    );
    if (outcome.type !== 'imported') throw new Error(outcome.type);
    expect(yields).toBeGreaterThanOrEqual(Math.ceil(outcome.document.passages / 4));
  });
});

describe('ingestDocument over a source that chunks elsewhere (X177)', () => {
  /** `textSource`, with the chunks made "in a worker": fetched by slice, released at the end. */
  function chunkedSource(text: string) {
    const log = { slices: [] as [number, number][], released: 0, parsed: 0 };
    const base = textSource(text);
    const source: DocumentSource = {
      ...base,
      async read(onProgress, signal) {
        const read = await base.read(onProgress, signal);
        return {
          ...read,
          async parseChunked(sizes, onParse) {
            log.parsed += 1;
            const chunks = chunkDocument(await read.parse(), sizes);
            onParse({ doneChars: text.length, totalChars: text.length });
            return {
              title: 'note.txt',
              mimeType: 'text/plain',
              count: chunks.length,
              slice: async (from, to) => {
                log.slices.push([from, to]);
                return chunks.slice(from, to);
              },
              release: () => {
                log.released += 1;
              },
            };
          },
        };
      },
    };
    return { source, log };
  }

  it('X177: with commitEvery, the chunks come a batch at a time and are indexed from the store', async () => {
    const page = await setup();
    const reference = await setup();
    const { source, log } = chunkedSource(longText);
    const progress: IngestProgress[] = [];
    const a = await ingestDocument(page.deps, AGENT, source, {
      commitEvery: 3,
      onProgress: (p) => progress.push(p),
    });
    const b = await ingestDocument(reference.deps, AGENT, textSource(longText));
    if (a.type !== 'imported' || b.type !== 'imported') throw new Error('import failed');
    expect(log.parsed).toBe(1);
    expect(a.document).toEqual(b.document);
    expect(a.passageIds).toEqual(b.passageIds);
    // Never more than one batch of passages asked for at once, and every one asked for once.
    expect(log.slices.every(([from, to]) => to - from <= 3)).toBe(true);
    expect(log.slices.flatMap(([from, to]) => [from, to]).at(-1)).toBe(a.document.passages);
    expect(log.released).toBe(1);
    expect(progress.filter((p) => p.type === 'parsing')).toEqual([
      { type: 'parsing', doneChars: longText.length, totalChars: longText.length },
    ]);
    expect(await page.find('harbour')).toHaveLength((await reference.find('harbour')).length);
    const texts = async (s: typeof page) =>
      (await s.store.queryPassages(AGENT)).map((p) => [p.text, p.embedding?.length]);
    expect(await texts(page)).toEqual(await texts(reference));
  });

  it('X177: a cancel mid-import releases the chunks and leaves nothing', async () => {
    const { deps, footprint } = await setup();
    const { source, log } = chunkedSource(longText);
    const controller = new AbortController();
    const outcome = await ingestDocument(deps, AGENT, source, {
      commitEvery: 3,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.type === 'embedding' && p.done === 6) controller.abort();
      },
    });
    expect(outcome).toEqual({ type: 'cancelled' });
    expect(log.released).toBe(1);
    expect(await footprint()).toEqual(EMPTY);
  });
});

describe('ingestDocument with commitEvery', () => {
  it('D39: batched commits give the same import as one change set', async () => {
    const one = await setup();
    const batched = await setup();
    const a = await ingestDocument(one.deps, AGENT, textSource(longText));
    const progress: IngestProgress[] = [];
    const b = await ingestDocument(batched.deps, AGENT, textSource(longText), {
      commitEvery: 3,
      batchSize: 4,
      onProgress: (p) => progress.push(p),
    });
    if (a.type !== 'imported' || b.type !== 'imported') throw new Error('import failed');
    expect(a.document.passages).toBeGreaterThan(9);
    expect(b.document).toEqual(a.document);
    expect(b.event.text).toBe(a.event.text);
    const texts = async (s: typeof one) =>
      (await s.store.queryPassages(AGENT)).map((p) => [p.text, p.embedding?.length]);
    expect(await texts(batched)).toEqual(await texts(one));
    expect(await batched.find('harbour')).toHaveLength((await one.find('harbour')).length);
    const done = progress.flatMap((p) => (p.type === 'embedding' ? [p.done] : []));
    expect(done).toEqual([...done].sort((x, y) => x - y));
    expect(done.at(-1)).toBe(a.document.passages);
  });

  it('D39: a cancel after some batches were written deletes them; nothing is left', async () => {
    const controller = new AbortController();
    const { store, deps, footprint } = await setup();
    let sawPartial = false;
    const outcome = await ingestDocument(deps, AGENT, textSource(longText), {
      commitEvery: 3,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.type === 'embedding' && p.done === 6) {
          void store.listDocuments(AGENT).then((docs) => {
            sawPartial = docs.some((d) => d.status === 'embedding');
          });
          controller.abort();
        }
      },
    });
    expect(outcome).toEqual({ type: 'cancelled' });
    expect(sawPartial).toBe(true);
    expect(await footprint()).toEqual(EMPTY);
  });

  it('D39: a storage failure mid-import deletes the written batches and rejects', async () => {
    const { store, deps, footprint } = await setup();
    let calls = 0;
    const failing = Object.create(store) as typeof store;
    failing.apply = async (changes) => {
      calls += 1;
      if (calls === 3) throw new AppError('storage_quota_exceeded', 'The disk is full.');
      return store.apply(changes);
    };
    const error = await ingestDocument({ ...deps, store: failing }, AGENT, textSource(longText), {
      commitEvery: 3,
    }).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('storage_quota_exceeded');
    expect(await footprint()).toEqual(EMPTY);
  });

  it('D39: removeUnfinishedImports sweeps what a crash mid-import left behind', async () => {
    const { store, deps, search, footprint } = await setup();
    const done = await ingestDocument(deps, AGENT, fixture('notes.txt'));
    if (done.type !== 'imported') throw new Error(done.type);
    // What a crash after one batch leaves: a document row still `embedding`, with passages.
    await store.apply({
      documents: [{ ...done.document, id: 'doc_left', contentHash: 'x', status: 'embedding' }],
      passages: (await store.queryPassages(AGENT, { documentId: done.document.id })).map((p) => ({
        ...p,
        id: `left_${p.id}`,
        source: { ...p.source, documentId: 'doc_left' } as typeof p.source,
      })),
    });
    expect(await removeUnfinishedImports({ store, search }, AGENT)).toEqual(['doc_left']);
    expect((await store.listDocuments(AGENT)).map((d) => d.id)).toEqual([done.document.id]);
    expect((await footprint()).passages).toBe(done.document.passages);
  });
});

describe('deleteDocument', () => {
  it('D34: deleting a document removes its passages, vectors and index entries; others stay', async () => {
    const { store, deps, find } = await setup();
    const pdf = await ingestDocument(deps, AGENT, fixture('sample.pdf'));
    const txt = await ingestDocument(deps, AGENT, textSource(longText));
    if (pdf.type !== 'imported' || txt.type !== 'imported') throw new Error('import failed');
    expect(await find('starfish')).toHaveLength(1);
    const removed = await deleteDocument(deps, pdf.document.id);
    expect([...removed].sort()).toEqual([...pdf.passageIds].sort());
    expect(await store.getDocument(pdf.document.id)).toBeUndefined();
    expect(await store.getPassages(pdf.passageIds)).toEqual([]);
    expect(await find('starfish')).toEqual([]);
    expect(await find('starfish tidal pools anemones', 'vector')).not.toContainEqual(
      expect.objectContaining({ id: pdf.passageIds[0] }),
    );
    expect((await find('harbour')).length).toBeGreaterThan(0);
    const error = await deleteDocument(deps, pdf.document.id).catch((e: unknown) => e);
    expect((error as AppError).code).toBe('not_found');
  });
});

describe('reembedDocument', () => {
  it('D35: after an embedding-model change the document is re-embedded in one change set', async () => {
    const { store, deps } = await setup();
    const outcome = await ingestDocument(deps, AGENT, fixture('notes.txt'));
    if (outcome.type !== 'imported') throw new Error(outcome.type);
    // The app builds a new search over the new embedder when the user switches models.
    const next = fakeEmbedder('fake-b', 8);
    const search = createMemorySearch({
      store,
      lexical: new Bm25LexicalIndex(),
      vectors: new LocalVectorIndex(next.dimension),
      embedder: next,
      clock: { now: () => NOW },
      vectorStore: store,
    });
    expect((await documentsToReembed(store, AGENT, next)).map((d) => d.id)).toEqual([
      outcome.document.id,
    ]);
    const reembedDeps = { store, search, embedder: next };

    const controller = new AbortController();
    controller.abort();
    expect(
      await reembedDocument(reembedDeps, outcome.document.id, { signal: controller.signal }),
    ).toEqual({ type: 'cancelled' });
    const untouched = await store.queryPassages(AGENT, { documentId: outcome.document.id });
    expect(untouched.every((p) => p.embeddingModel === 'fake-a')).toBe(true);

    const done: number[] = [];
    const result = await reembedDocument(reembedDeps, outcome.document.id, {
      onProgress: (d) => done.push(d),
    });
    expect(result).toEqual({ type: 'reembedded', passages: outcome.document.passages });
    expect(done.at(-1)).toBe(outcome.document.passages);
    const passages = await store.queryPassages(AGENT, { documentId: outcome.document.id });
    expect(passages.every((p) => p.embeddingModel === 'fake-b')).toBe(true);
    expect(await documentsToReembed(store, AGENT, next)).toEqual([]);
  });
});
