import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '../../core/ports/llm-engine';
import { MEMORIES_HEADER, MESSAGE_AFTER_MEMORIES } from '../../core/prompts/render-context';
import { resetCause, type KindedExchange } from './reset-cause';
import { continuesConversation } from '../../core/context/prefix-reuse';

const system = (summary = 'Ana bakes.', core = 'Name: Ana.'): ChatTurn => ({
  role: 'system',
  content: `You are Loci.\n\nCore memory:\n${core}\n\nSummary of earlier conversation (messages 1–4, searchable in recall):\n${summary}`,
});
const user = (content: string): ChatTurn => ({ role: 'user', content });
const assistant = (content: string): ChatTurn => ({ role: 'assistant', content });
const withMemories = (lines: string[], text: string) =>
  user([MEMORIES_HEADER, ...lines.map((l) => `- ${l}`), MESSAGE_AFTER_MEMORIES, text].join('\n'));
const output = '{"thinking":"Hi.","function":"send_message","arguments":{"message":"Hi!"}}';

const first = withMemories(['[2026-01-01 Ana] "I bake rye"'], 'Hello');
const previous: KindedExchange = {
  kind: 'step',
  messages: [system(), user('Earlier'), assistant('Ok'), first],
  output,
  finishReason: 'stop',
};
const step = (messages: ChatTurn[]) => ({ kind: 'step' as const, messages });
const next = (...changes: ChatTurn[]) => [
  system(),
  user('Earlier'),
  assistant('Ok'),
  first,
  assistant(output),
  ...changes,
];

describe('why web-llm prefills a request in full (V34)', () => {
  it('V34: a request that continues the previous one has no cause, and agrees with the reuse rule', () => {
    const messages = next(user('How are you?'));
    expect(continuesConversation(previous, messages)).toBe(true);
    expect(resetCause(previous, step(messages))).toBeNull();
  });

  it('V34: the first request, a summary request and the step after it, a cut reply', () => {
    expect(resetCause(null, step(next(user('x'))))).toBe('first');
    const summary = { kind: 'summary' as const, messages: [user('Summarize')] };
    expect(resetCause(previous, summary)).toBe('summary_request');
    expect(
      resetCause({ ...summary, output: 'S', finishReason: 'stop' }, step(next(user('x')))),
    ).toBe('summary_request');
    expect(resetCause({ ...previous, finishReason: 'abort' }, step(next(user('x'))))).toBe(
      'reply_cut',
    );
  });

  it('V34: a changed system message is named by the section that changed', () => {
    const rest = next(user('x')).slice(1);
    expect(resetCause(previous, step([system('Ana bakes rye.'), ...rest]))).toBe('system_summary');
    expect(resetCause(previous, step([system(undefined, 'Name: Ana B.'), ...rest]))).toBe(
      'system_core',
    );
    const other = { role: 'system' as const, content: `Be brief.\n\n${system().content}` };
    expect(resetCause(previous, step([other, ...rest]))).toBe('system_other');
  });

  it('V34: memories dropped from an earlier message, a re-rendered reply, an eviction, two new messages', () => {
    const dropped = [
      system(),
      user('Earlier'),
      assistant('Ok'),
      user('Hello'),
      assistant(output),
      user('x'),
    ];
    expect(resetCause(previous, step(dropped))).toBe('memories_changed');
    const compact = next(user('x'));
    compact[4] = assistant('{"function":"send_message","arguments":{"message":"Hi!"}}');
    expect(resetCause(previous, step(compact))).toBe('output_rewritten');
    const evicted = [system(), assistant('Ok'), first, assistant(output), user('x')];
    expect(resetCause(previous, step(evicted))).toBe('evicted');
    const two = next(user('[event 2026-01-02 09:00 UTC] A new session.'), user('x'));
    expect(resetCause(previous, step(two))).toBe('several_new');
    const tool = { ...previous, messages: [system(), user('[result of search] 3 hits'), first] };
    const changedTool = [
      system(),
      user('[result of search] 4 hits'),
      first,
      assistant(output),
      user('x'),
    ];
    expect(resetCause(tool, step(changedTool))).toBe('tool_result_changed');
    expect(resetCause(previous, step([system(), user('x')]))).toBe('message_missing');
  });
});
