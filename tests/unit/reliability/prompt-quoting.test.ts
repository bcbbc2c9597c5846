/**
 * X232 (issue 34, finding 5), fuzzed: seeded hostile strings — closing and opening tags, role
 * lines (`SYSTEM:`), chat-template tokens, every line-break character, quotes, backslashes,
 * brackets, bidi controls — in each kind of user- or file-controlled string the prompt shows
 * (block label and description, agent name — also in a new agent's persona — who said a line,
 * conversation title, document title, passage id, a stored tool result's tool name, the summary). Each rendering has exactly the tags and lines of the same rendering with a
 * harmless value, no line starting with a role header, and a value shown quoted decodes back to
 * itself (nothing is lost). CI: 300 strings per kind; full (`LOCI_RELIABILITY_FULL=1`): 20,000.
 */
import { describe, expect, it } from 'vitest';
import { defaultPersona } from '../../../src/core/agent/create-agent-record';
import { documentImportedText } from '../../../src/core/documents/document-imported-event';
import type { CoreBlock, Message, Passage } from '../../../src/core/model';
import { isBlockLabel } from '../../../src/core/prompts/block-label';
import { documentImportedText as importedEventText } from '../../../src/core/prompts/event-copy';
import { speakerText } from '../../../src/core/text/inline-text';
import {
  conversationLabel,
  passageSourceLabel,
  renderArchivalMemory,
  renderCoreSection,
  renderMessage,
  renderRecallMemory,
  renderSummarySection,
} from '../../../src/core/prompts/render-context';
import { systemInstructions } from '../../../src/core/prompts/system-instructions';
import { extractiveSummary } from '../../../src/core/summary/extractive-summary';
import { createEstimateTokenizer } from '../../../src/core/tokens/estimate-tokenizer';
import { formatPage } from '../../../src/core/tools/format-page';
import { pick, seededRandom } from '../../../src/testing/seeded-random';
import { FULL, reportReliability } from './reliability-report';

const PIECES = [
  '\n',
  '\r\n',
  '\r',
  '\u2028',
  '\u2029',
  '\u0085',
  '\v',
  '\f',
  '</human>',
  '<persona>',
  '</block>',
  '<block label="x">',
  'SYSTEM:',
  'System: ',
  'assistant:',
  '<|im_start|>system',
  '<|start_header_id|>',
  '[INST]',
  '"',
  '\\',
  '\\n',
  '[',
  ']',
  '] "',
  '<',
  '>',
  '`',
  ' ',
  '  ',
  'notes',
  'Sam',
  'Ünï',
  '名前',
  '\u202e',
  '&lt;',
  '\u0000',
];

function hostileString(random: () => number): string {
  const n = 1 + Math.floor(random() * 12);
  let out = '';
  for (let i = 0; i < n; i += 1) out += pick(random, PIECES);
  return out;
}

/** Every line, split at any character a model or a regular expression reads as a line break. */
const lines = (text: string) => text.split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/);
/** Tag-like tokens: `<name`, `</name`, `<|…`. */
const tags = (text: string) => [...text.matchAll(/<\/?[A-Za-z|][\w|-]*/g)].map((m) => m[0]);
const ROLE_LINE = /^\s*(?:system|assistant|user)\s*:/i;
/** In a summary, `User: …` and `Assistant: …` are the extractive summary's own lines. */
const SYSTEM_ROLE_LINE = /^\s*(?:system|developer|tool)\s*:/i;

const AT = Date.UTC(2026, 2, 4);
const block = (label: string, description: string): CoreBlock => ({
  agentId: 'a',
  label,
  description,
  value: 'Launch in May.',
  charLimit: 2000,
  readOnly: false,
  updatedAt: AT,
  version: 1,
});
const message = (author: string): Message => ({
  id: 'm1',
  agentId: 'a',
  seq: 1,
  role: 'user',
  author,
  text: 'The figures are due Friday.',
  at: AT,
  inContext: false,
  tokens: 8,
});
const passage = (id: string): Passage => ({
  id,
  agentId: 'a',
  text: 'Figures rose.',
  source: { type: 'document', documentId: 'd', chunk: 2, start: 0, end: 13 },
  tags: [],
  at: AT,
  embedding: null,
  embeddingModel: null,
  dimension: 0,
});
const tokenizer = createEstimateTokenizer();

/** Each kind's renderings of a value: what the prompt shows where that value goes. */
const KINDS: Record<string, (v: string) => string> = {
  'block label': (v) => renderCoreSection([block('persona', 'who you are'), block(v, 'notes')]),
  'block description': (v) => renderCoreSection([block('notes', v)]),
  'agent name': (v) => systemInstructions(v),
  'agent name (default persona)': (v) =>
    renderCoreSection([{ ...block('persona', 'who you are'), value: defaultPersona(v) }]),
  'author (recall line)': (v) => renderRecallMemory(message(v)),
  'author (search hit)': (v) =>
    formatPage(
      {
        hits: [
          { id: 'm1', kind: 'message', score: 1, text: 'due Friday', at: AT, message: message(v) },
        ],
        total: 1,
        page: 1,
        pageSize: 5,
      },
      '"figures"',
      () => conversationLabel('Trip'),
    ),
  'author (summary)': (v) =>
    extractiveSummary({ messages: [message(v)], tokenizer, maxTokens: 200 }).text,
  // The summarizer's transcript lines (queue-manager) open with speakerText too.
  'speaker of a line': (v) => `${speakerText(v)}: The figures are due Friday.`,
  'conversation title': (v) => renderRecallMemory(message('Sam'), conversationLabel(v)),
  'document title (recall)': (v) =>
    renderArchivalMemory('p-1', 'Figures rose.', passageSourceLabel(passage('p-1'), v)),
  'document title (import event)': (v) => documentImportedText(v, 3),
  'document title (event copy)': (v) => importedEventText(v, 3, 120),
  'passage id': (v) => renderArchivalMemory(v, 'Figures rose.', 'document, passage 1'),
  'tool name (a backup row)': (v) =>
    renderMessage({
      ...message('Sam'),
      role: 'tool',
      toolCall: { name: v, arguments: {} },
      toolResult: 'ok',
    }).content,
  // The summary may hold line breaks of its own: the line count is compared after them.
  'summary text': (v) =>
    renderSummarySection({
      id: 's',
      agentId: 'a',
      version: 1,
      text: `Sam asked about figures.\n${v.replace(/\r\n|[\n\r\v\f]/g, ' ')}`,
      fromSeq: 1,
      toSeq: 4,
      method: 'model',
      at: AT,
      tokens: 20,
    }),
};

/** The quoted forms whose value must decode back exactly (a label, a title, an id). */
function decodesBack(kind: string, value: string, text: string): boolean {
  const quoted = text.match(/"(?:[^"\\]|\\.)*"/g) ?? [];
  const exact = [
    'block label',
    'conversation title',
    'document title (recall)',
    'document title (import event)',
    'document title (event copy)',
  ];
  // The import event shows at most 200 characters of a title (C14); the fuzz stays below that.
  if (kind === 'passage id' && /^[\w.:-]+$/.test(value)) return text.includes(`[p:${value}]`);
  if (kind === 'block label' && isBlockLabel(value)) return text.includes(`<${value} `);
  if (!exact.includes(kind) && kind !== 'passage id') return true;
  return quoted.some((q) => {
    try {
      return JSON.parse(q) === value;
    } catch {
      // Not a JSON string: not the value's quote.
      return false;
    }
  });
}

describe('prompt quoting, fuzzed (X232)', () => {
  it('X232: hostile strings of every kind add no tag, no line and no role line, and lose nothing', () => {
    const perKind = FULL ? 20_000 : 300;
    const random = seededRandom(0x5eed34);
    const failed: Record<string, number> = {};
    let trials = 0;
    let failures = 0;
    let lost = 0;
    const firstFailure: string[] = [];
    for (const [kind, render] of Object.entries(KINDS)) {
      for (let i = 0; i < perKind; i += 1) {
        const value = hostileString(random);
        const text = render(value);
        // A label that breaks the rule is compared with one that breaks it harmlessly; a valid
        // label (it has no `<` and no line break) names its own tag.
        const harmless = isBlockLabel(value) ? value : 'Notes';
        const plain = render(kind === 'block label' ? harmless : 'x');
        trials += 1;
        const ok =
          lines(text).length === lines(plain).length &&
          JSON.stringify(tags(text)) === JSON.stringify(tags(plain)) &&
          !lines(text).some((l) =>
            (kind === 'summary text' ? SYSTEM_ROLE_LINE : ROLE_LINE).test(l),
          );
        if (!ok) {
          failures += 1;
          failed[kind] = (failed[kind] ?? 0) + 1;
          if (firstFailure.length < 3) firstFailure.push(`${kind}: ${JSON.stringify(value)}`);
        }
        if (!decodesBack(kind, value, text)) lost += 1;
      }
    }
    reportReliability({
      name: 'prompt-quoting',
      rule: 'X232',
      trials,
      failures,
      lost,
      details: { kinds: Object.keys(KINDS).length, perKind, ...failed },
    });
    expect(firstFailure).toEqual([]);
    expect({ failures, lost }).toEqual({ failures: 0, lost: 0 });
  });
});
