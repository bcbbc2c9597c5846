import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedEngine } from '../../adapters/llm/scripted/scripted-engine';
import { LocalVectorIndex } from '../../adapters/search/local-vector-index';
import { Bm25LexicalIndex } from '../../adapters/search/bm25-lexical-index';
import type { DexieMemoryStore } from '../../adapters/storage/dexie';
import { openMemoryStore } from '../../adapters/storage/dexie';
import type { CompletionRequest } from '../ports/llm-engine';
import type { Embedder } from '../ports/embedder';
import { createMemorySearch } from '../search/memory-search';
import { editSection } from './edit-section';
import { startProject } from './start-project';
import { fakeClockAndIds, stepJson, writerAgent } from './testing/fakes';
import { writeStep } from './write-step';
import { loadWriterState } from './writer-persistence';

const DIM = 8;
// Words of one concept share a dimension: "hound" and "dog" are neighbours, so a plan about a
// dog finds the section about the hound with no word in common.
const CONCEPTS: Record<string, number> = { hound: 0, dog: 0, lighthouse: 1, beacon: 1, ship: 2 };

function conceptEmbedder(): Embedder {
  const embed = (text: string): Float32Array => {
    const v = new Float32Array(DIM);
    for (const w of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
      const c = CONCEPTS[w];
      if (c !== undefined) v[c] = (v[c] ?? 0) + 1;
      else v[7] = (v[7] ?? 0) + 0.01;
    }
    return v;
  };
  return {
    modelId: 'concepts',
    dimension: DIM,
    embedPassages: async (texts) => texts.map(embed),
    embedQuery: async (text) => embed(text),
  };
}

const userOf = (request: CompletionRequest | undefined): string =>
  request?.messages.find((m) => m.role === 'user')?.content ?? '';

const stores: DexieMemoryStore[] = [];
afterEach(() => stores.splice(0).forEach((s) => s.close()));

describe('writing mode over the real store and search', () => {
  it('G3: sections persist as writer passages and a plan finds a semantically similar one', async () => {
    const store = await openMemoryStore(`writer-it-${Date.now()}`);
    stores.push(store);
    const { clock, ids } = fakeClockAndIds();
    const search = createMemorySearch({
      store,
      lexical: new Bm25LexicalIndex(),
      vectors: new LocalVectorIndex(DIM),
      embedder: conceptEmbedder(),
      clock,
    });
    const agent = writerAgent();
    await store.apply({ agents: [agent] });
    await search.loadAgent(agent.id);
    const sections = [
      'A grey hound sleeps by the door of the keeper.',
      'A ship with red sails anchors in the bay.',
      'Rain all evening; Mara reads by the fire.',
      'Mara wakes early.',
    ];
    const engine = new ScriptedEngine({
      rule: (_r, i) =>
        stepJson({
          section: sections[i] ?? 'The end.',
          memory: `Memory ${i}.`,
          plans: ['One.', 'Two.', 'Three.'],
        }),
    });
    const deps = { engine, store, search, clock, ids };
    let { state } = await startProject(deps, agent, { genre: 'mystery', topic: 'the coast' });
    ({ state } = await writeStep(deps, state, { type: 'own', text: 'Sails appear.' }));
    ({ state } = await writeStep(deps, state, { type: 'own', text: 'An evening in.' }));
    const out = await writeStep(deps, state, {
      type: 'own',
      text: 'Mara follows the dog into the dunes.',
    });
    const step = out.step;
    expect(step.passageIds[0]).toBe(state.sections[0]!.id);
    expect(userOf(engine.requests[3])).toContain('[1] A grey hound sleeps by the door');
    const passages = await store.getPassages(state.sections.map((s) => s.id));
    expect(passages.every((p) => p.tags.includes('writer'))).toBe(true);
    expect((await loadWriterState(store, agent.id))?.sections).toHaveLength(4);

    // G10: an edit is re-embedded; the old text no longer answers, the new one does.
    state = await editSection(
      deps,
      out.state,
      out.state.sections[1]!.id,
      'A beacon blinks far out.',
    );
    await writeStep(deps, state, { type: 'own', text: 'Somebody walks to the lighthouse.' });
    const prompt = userOf(engine.requests[4]);
    expect(prompt).toContain('[1] A beacon blinks far out.');
    expect(prompt).not.toContain('red sails');
  });
});
