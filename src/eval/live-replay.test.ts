/**
 * The live replay on a tiny hand-built conversation (V28–V30): the turns run through the real
 * turn loop, a fact told early reaches the planned prompt of a question turn, and a question's
 * turn changes neither the replayed state nor the next question.
 */
import { describe, expect, it } from 'vitest';
import { createEstimateTokenizer } from '../core/tokens/estimate-tokenizer';
import { liveReplayDeps } from '../testing/live-replay-host';
import type { EpochMs } from '../core/units';
import type { EvalConversation, EvalTurn } from './eval-dataset';
import { askOnFork, replayLive, replayRounds } from './live-replay';

const DAY = 86_400_000;
const START = Date.UTC(2024, 2, 1, 9, 0, 0);

function conversation(): EvalConversation {
  const turns: EvalTurn[] = [];
  const add = (session: number, speaker: string, text: string) => {
    const n = turns.filter((t) => t.session === session).length + 1;
    turns.push({
      id: `D${session}:${n}`,
      speaker,
      text,
      at: (START + (session - 1) * 3 * DAY + n * 20_000) as EpochMs,
      session,
    });
  };
  add(1, 'Ada', 'My sister Noor moved to Lisbon last spring to study marine biology.');
  add(1, 'Ben', 'Lisbon by the ocean, what a place for marine biology!');
  for (let s = 2; s <= 7; s += 1) {
    // The agent opens session 4, as when it greets a returning user.
    if (s !== 4)
      add(s, 'Ada', `Day ${s}: I spent the morning sorting tomato seedlings in the garden.`);
    add(s, 'Ben', `Sorting seedlings sounds calm; how many trays did you fill on day ${s}?`);
    add(s, 'Ada', `About ${s + 3} trays, and I repotted the basil and the chili plants too.`);
    add(
      s,
      'Ben',
      s === 7 ? 'Sleep well!' : `The chili plants will like the warm window on day ${s}.`,
    );
  }
  return {
    id: 'tiny',
    speakers: ['Ada', 'Ben'],
    turns,
    questions: [],
  };
}

const deps = () =>
  liveReplayDeps(null, createEstimateTokenizer(), () => (START + 30 * DAY) as EpochMs);

describe('the live replay', () => {
  it('V28: groups turns into loop turns; a session the agent opens starts with a session start', () => {
    const rounds = replayRounds(conversation());
    expect(rounds[0]).toMatchObject({ user: { id: 'D1:1' }, replies: [{ id: 'D1:2' }] });
    const opened = rounds.find((r) => r.user === null);
    expect(opened?.replies.map((t) => t.id)).toEqual(['D4:1']);
  });

  it('V28 V29: replays through runTurn with the speakers as names, and a fact told early is in a question turn’s planned prompt', async () => {
    const c = conversation();
    const d = deps();
    const replay = await replayLive(c, 'memgpt', 500, d);
    expect(replay.problems).toEqual({});
    // Every dataset turn became a stored message the user would see.
    expect(replay.messageOfTurn.size).toBe(c.turns.length);
    const first = replay.messageOfTurn.get('D1:1')!;
    const reply = replay.messageOfTurn.get('D1:2')!;
    expect(first).toMatchObject({ role: 'user', author: 'Ada' });
    expect(reply).toMatchObject({ role: 'assistant', author: 'Ben' });
    expect(reply.toolCall?.arguments).toEqual({ message: c.turns[1]!.text });
    // The budget is small: the queue manager flushed, and the early fact left the queue.
    expect(replay.flushes).toBeGreaterThan(0);
    const queue = await replay.world.store.queryMessages(replay.agent.id, { inContext: true });
    expect(queue.map((m) => m.id)).not.toContain(first.id);
    // Every turn's requests were metered; each reply round took one step.
    expect(replay.meter?.summary().turns).toBe(replayRounds(c).length);

    const asked = await askOnFork(
      replay,
      'Where does my sister Noor live now?',
      d,
      (START + 30 * DAY) as EpochMs,
    );
    expect(asked.problem).toBeUndefined();
    // Automatic recall paged the evicted fact back in for the question's first step.
    expect(asked.prompt).toContain(c.turns[0]!.text);
    expect(asked.prompt).toContain('Where does my sister Noor live now?');
  });

  it('V30: a question’s turn changes neither the replayed state nor the next question', async () => {
    const c = conversation();
    const d = deps();
    const replay = await replayLive(c, 'memgpt', 500, d);
    const count = () => replay.world.store.countMessages(replay.agent.id);
    const before = await count();
    const summaries = (await replay.world.store.listSummaries(replay.agent.id)).length;
    const at = (START + 30 * DAY) as EpochMs;
    const one = await askOnFork(replay, 'How many trays of seedlings did Ada fill?', d, at);
    const two = await askOnFork(replay, 'Which city did Noor move to?', d, at);
    expect(one.prompt).toContain('How many trays of seedlings did Ada fill?');
    expect(two.prompt).not.toContain('How many trays of seedlings');
    expect(await count()).toBe(before);
    expect((await replay.world.store.listSummaries(replay.agent.id)).length).toBe(summaries);
    // The replayed search does not hold the questions either.
    const page = await replay.world.search.search({
      agentId: replay.agent.id,
      text: 'trays seedlings Ada fill',
      kinds: ['message'],
      mode: 'lexical',
      page: 1,
      pageSize: 50,
    });
    const texts = await replay.world.store.getMessages(page.hits.map((h) => h.id));
    expect(texts.some((m) => m.text.includes('How many trays'))).toBe(false);
  });
});
