/**
 * The two reuse rules of the turn-cost meter against hand-built request sequences, counted with
 * the real Llama 3 tokenizer and template (V23–V26, ADR 0091).
 *
 * web-llm 0.2.86, read in `node_modules/@mlc-ai/web-llm/lib/index.js`:
 * - `preparePrefillInput` (line 19072): resets unless the previous reply did not end by `abort`
 *   or `length` (line 19087) and `compareConversationObject(oldConv, newConv)` holds; an empty
 *   history also resets (line 19097); otherwise "Multiround chatting, reuse KVCache" (line 19103).
 * - `getConversationFromChatCompletionRequest` (line 10876): the request minus its last message;
 *   a leading system message becomes `override_system_message` (line 10899).
 * - `compareConversationObject` (line 10768): equal system message, equal message count (line
 *   10774), every role and string equal.
 * - the held conversation ends with the reply as generated: `finishReply(this.outputMessage)`
 *   (lines 12507, 12590); on reuse only the last round is prefilled (`getPromptArrayLastRound`,
 *   line 10565).
 * Longest common prefix (llama.cpp, wllama, llama.cpp server, vLLM): everything after the first
 * token that differs from the previous request followed by its generated output.
 */
import { describe, expect, it } from 'vitest';
import { createLlama3ChatTokens } from '../../adapters/tokenizer/llama3-chat-tokens';
import type { ChatTurn } from '../../core/ports/llm-engine';
import { requestTokens } from './chat-template-tokens';
import { commonPrefix, requestCost, type MeasuredExchange } from './request-cost';

const tokens = createLlama3ChatTokens();
const system = [
  'You are Loci, a companion with memory.',
  'Core memory:',
  '<human>Name: Ada.</human>',
  'Relevant memories (retrieved automatically):',
  '- [recall 2023-05-08 Ada] I went to a support group yesterday.',
].join('\n');
const sys = (content = system): ChatTurn => ({ role: 'system', content });
const user = (content: string): ChatTurn => ({ role: 'user', content });
const assistant = (content: string): ChatTurn => ({ role: 'assistant', content });
const generated =
  '{"thinking": "Reply to Ada.", "function": "send_message", "arguments": {"message": "That sounds brave!"}, "request_heartbeat": false}';

function measured(
  messages: ChatTurn[],
  output: string,
  finishReason: MeasuredExchange['finishReason'] = 'stop',
): MeasuredExchange {
  return { messages, output, finishReason, tokens: requestTokens(tokens, messages) };
}

const first = [sys(), user('I went to a support group yesterday.')];
const previous = measured(first, generated);
const ask = user('It was hard but good. Any tips for the next one?');
const lastRound = tokens.message(ask).length + tokens.generationHeader().length;

describe('turn cost of one request (Llama 3 tokens)', () => {
  it('V23: the first request an engine sees is new and prefilled in full by both rules', () => {
    const { cost } = requestCost(tokens, null, first);
    expect(cost.fullPrompt).toBe(requestTokens(tokens, first).length);
    expect(cost).toMatchObject({
      newTokens: cost.fullPrompt,
      prefillWebllm: cost.fullPrompt,
      prefillLcp: cost.fullPrompt,
      webllmReused: false,
    });
  });

  it('V24 V25: the previous request plus its reply exactly as generated is reused by both rules', () => {
    const next = [...first, assistant(generated), ask];
    const { cost } = requestCost(tokens, previous, next);
    expect(cost.webllmReused).toBe(true);
    expect(cost.prefillWebllm).toBe(lastRound);
    // LCP holds the prompt and the generated tokens; the reply's end-of-turn token is new.
    expect(cost.prefillLcp).toBe(lastRound + 1);
    // New: the user message with its template tokens and the reply header, nothing else.
    expect(cost.newTokens).toBeGreaterThanOrEqual(tokens.count(ask.content));
    expect(cost.newTokens).toBeLessThanOrEqual(lastRound + 1);
    expect(cost.fullPrompt).toBeGreaterThan(3 * cost.prefillWebllm);
  });

  it('V24 V25: a changed system message makes web-llm prefill everything; LCP keeps the prefix before the change', () => {
    const changed = `${system}\n- [recall 2023-05-09 Ada] My sister lives in Lisbon.`;
    const next = [sys(changed), first[1]!, assistant(generated), ask];
    const { cost, tokens: sequence } = requestCost(tokens, previous, next);
    expect(cost.webllmReused).toBe(false);
    expect(cost.prefillWebllm).toBe(cost.fullPrompt);
    const kept = commonPrefix([...previous.tokens, ...tokens.output(generated)], sequence);
    // The common prefix ends inside the system message where the new line starts: everything
    // but its end-of-turn token and the final "." (BPE merges "." with the new "\n").
    expect(kept).toBe(1 + tokens.message(sys()).length - 2);
    expect(cost.prefillLcp).toBe(cost.fullPrompt - kept);
    // Only the added memory line, the new user message and the header are new.
    const added = tokens.count('- [recall 2023-05-09 Ada] My sister lives in Lisbon.\n');
    expect(cost.newTokens).toBeGreaterThanOrEqual(added + tokens.count(ask.content));
    expect(cost.newTokens).toBeLessThanOrEqual(added + lastRound + 1);
  });

  it('V24 V25: an edited earlier message resets web-llm; LCP re-reads from the edit on', () => {
    const next = [sys(), user('I went to a support group on Sunday.'), assistant(generated), ask];
    const { cost, tokens: sequence } = requestCost(tokens, previous, next);
    expect(cost.webllmReused).toBe(false);
    expect(cost.prefillWebllm).toBe(cost.fullPrompt);
    const beforeEdit = 1 + tokens.message(sys()).length;
    const kept = commonPrefix(previous.tokens, sequence);
    expect(kept).toBeGreaterThan(beforeEdit);
    expect(kept).toBeLessThan(beforeEdit + tokens.message(first[1]!).length);
    expect(cost.prefillLcp).toBe(cost.fullPrompt - kept);
  });

  it('V24 V25: after an interrupted reply web-llm prefills everything; LCP keeps the partial output', () => {
    const partial = generated.slice(0, 60);
    const stopped = measured(first, partial, 'abort');
    const next = [...first, assistant(partial), ask];
    const { cost } = requestCost(tokens, stopped, next);
    expect(cost.webllmReused).toBe(false);
    expect(cost.prefillWebllm).toBe(cost.fullPrompt);
    // The partial output may end mid-token; the prefix keeps all but the last piece of it.
    expect(cost.prefillLcp).toBeLessThanOrEqual(lastRound + 3);
    // A reply cut off by the length limit resets web-llm too.
    const cut = requestCost(tokens, measured(first, partial, 'length'), next);
    expect(cut.cost.webllmReused).toBe(false);
  });

  it('V24 V25: a reply re-rendered differently from what was generated defeats both caches', () => {
    // What the loop does today: the step is shown without its thinking, as compact JSON.
    const rendered = JSON.stringify({
      function: 'send_message',
      arguments: { message: 'That sounds brave!' },
    });
    const next = [...first, assistant(rendered), ask];
    const { cost, tokens: sequence } = requestCost(tokens, previous, next);
    expect(cost.webllmReused).toBe(false);
    expect(cost.prefillWebllm).toBe(cost.fullPrompt);
    const kept = commonPrefix([...previous.tokens, ...tokens.output(generated)], sequence);
    // Common up to the start of the assistant content only.
    expect(kept).toBe(previous.tokens.length + 1);
    expect(cost.prefillLcp).toBe(cost.fullPrompt - kept);
    // The model's own output is never counted as new, however it is re-rendered.
    expect(cost.newTokens).toBeLessThanOrEqual(lastRound + 1);
  });

  it('V25: web-llm resets when the history is empty or a message is missing', () => {
    const bare = requestCost(tokens, previous, [sys(), ask]);
    expect(bare.cost.webllmReused).toBe(false);
    const missing = requestCost(tokens, previous, [sys(), assistant(generated), ask]);
    expect(missing.cost.webllmReused).toBe(false);
  });
});
