#!/usr/bin/env node
// Generates the tiny fixture embedding model under tests/fixtures/models/loci-fixture-embed/:
// a BERT-shaped ONNX graph (Gather → Tanh → Mul by the attention mask; transformers.js does the
// mean pooling and normalisation) with a hand-made embedding table in which words of one topic
// cluster (family, food, travel, …, in English and Chinese) sit near their cluster's centroid,
// so "similar words score closer than unrelated ones" holds. Deterministic: same output every run.
// Usage: node scripts/make-fixture-embedder.mjs   (no dependencies; writes ONNX protobuf by hand)
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HIDDEN = 32;
const OUT = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  'tests/fixtures/models/loci-fixture-embed',
);

// Topic clusters. Chinese entries are single characters because BERT's normaliser splits every
// Han character into its own token (handle_chinese_chars), so 生日 embeds as mean(生, 日).
const CLUSTERS = {
  family:
    'family mother mom mum father dad dads parent parents sister brother sibling son daughter child children kid kids wife husband grandma grandpa grandmother grandfather aunt uncle cousin baby 家 妈 爸 母 父 姐 妹 哥 弟 儿 女 孩 亲 奶 爷 婆',
  food: 'food eat eating ate dinner lunch breakfast meal cook cooking cooked pizza pasta noodles rice bread soup salad cake dessert restaurant recipe hungry delicious cheese chocolate coffee tea sushi dumplings vegetarian 吃 饭 菜 面 米 汤 茶 肉 鱼 饺 餐 饿 甜 味 厨',
  travel:
    'travel trip journey flight fly plane airport hotel vacation holiday passport luggage train station visit tour tourist beach abroad ticket 旅 游 飞 机 票 站 酒 店 假 行 景 海 滩',
  work: 'work job office boss manager meeting meetings project deadline colleague colleagues career salary company business email report interview promotion 工 作 班 司 公 老 板 会 议 事 业 职',
  pets: 'pet pets dog dogs puppy cat cats kitten fish hamster rabbit vet walk leash bark paw 狗 猫 宠 物 兔 喵 汪',
  dates:
    'birthday birthdays anniversary party celebrate celebration gift present candles calendar date month year january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday 生 日 月 年 号 周 星 期 庆 礼 节',
  music:
    'music song songs sing singing guitar piano violin drum drums band concert album playlist melody jazz rock classical 音 乐 歌 唱 琴 曲 鼓',
  health:
    'health doctor hospital sick ill illness medicine pill pills headache fever cold flu allergy allergic pain exercise gym run running sleep tired dentist 医 院 病 药 疼 痛 健 康 睡 累 感 冒 烧',
  places:
    'city town village country home house apartment street london paris tokyo beijing shanghai berlin york river mountain park 城 市 国 京 沪 街 山 河 公 园 区',
  weather:
    'weather rain rainy sunny snow snowy wind windy storm cloud cloudy hot warm cool temperature umbrella 天 气 雨 雪 风 晴 阴 热 冷',
  study:
    'school study studying student students teacher class classes homework exam exams university college learn learning lesson book books read reading library 学 校 课 书 读 考 试 师 生',
  sport:
    'sport sports football soccer basketball tennis swim swimming bike cycling hiking yoga match team score 球 足 篮 跑 游 泳 赛 队',
  feelings:
    'happy sad angry afraid scared worried anxious love loves loved hate glad lonely excited nervous calm 开 心 高 兴 难 过 伤 生 气 怕 爱 喜 欢 怒',
  money:
    'money bank pay paid price cost costs buy bought sell shop shopping cheap expensive budget rent 钱 银 行 买 卖 贵 便 宜 价 付 租',
  tech: 'computer phone laptop app software code coding program internet website email password screen keyboard battery 电 脑 手 机 网 软 件 码 屏',
};

// Suffixes so "dogs" → dog + ##s instead of [UNK]; they carry no topic (zero vectors).
const SUFFIXES = ['##s', '##es', '##ed', '##ing', '##ly', '##er', '##ers'];
const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];

// Deterministic PRNG (mulberry32) and normal samples (Box–Muller).
let seed = 0x10c1;
function random() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
function normal() {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}
const vector = (scale) => Array.from({ length: HIDDEN }, () => normal() * scale);

// Values stay ~±0.3 so tanh in the graph is close to linear and clusters keep their shape.
const CENTROID_SCALE = 0.3;
const NOISE_SCALE = 0.1;
const vocab = [];
const rows = [];
const seen = new Map();
for (const token of SPECIAL) {
  vocab.push(token);
  // [UNK] and [CLS] get a tiny shared vector so an all-unknown text never pools to 0/0 = NaN.
  rows.push(token === '[UNK]' || token === '[CLS]' ? vector(0.02) : vector(0));
}
for (const token of SUFFIXES) {
  vocab.push(token);
  rows.push(vector(0));
}
for (const [name, words] of Object.entries(CLUSTERS)) {
  const centroid = vector(CENTROID_SCALE);
  for (const word of words.split(/\s+/)) {
    const noise = vector(NOISE_SCALE);
    const row = centroid.map((c, i) => c + (noise[i] ?? 0));
    const earlier = seen.get(word);
    if (earlier !== undefined) {
      // A token in two topics (生: birthday and student) sits between them.
      rows[earlier] = rows[earlier].map((v, i) => (v + (row[i] ?? 0)) / 2);
      continue;
    }
    seen.set(word, vocab.length);
    vocab.push(word);
    rows.push(row);
  }
  void name;
}

// ---- protobuf writer (just what ONNX needs) ----
function varint(n) {
  const out = [];
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const bytes = (...parts) => Uint8Array.from(parts.flatMap((p) => [...p]));
const key = (field, wire) => varint((field << 3) | wire);
const int = (field, n) => bytes(key(field, 0), varint(n));
const len = (field, payload) => bytes(key(field, 2), varint(payload.length), payload);
const str = (field, s) => len(field, new TextEncoder().encode(s));
const msg = (field, ...parts) => len(field, bytes(...parts));

const FLOAT = 1;
const INT64 = 7;
const dim = (d) => (typeof d === 'number' ? msg(1, int(1, d)) : msg(1, str(2, d)));
const valueInfo = (field, name, elemType, dims) =>
  msg(field, str(1, name), msg(2, msg(1, int(1, elemType), msg(2, ...dims.map(dim)))));
const node = (op, inputs, outputs, ...attrs) =>
  msg(
    1,
    ...inputs.map((i) => str(1, i)),
    ...outputs.map((o) => str(2, o)),
    str(3, `${op}_${outputs[0]}`),
    str(4, op),
    ...attrs,
  );
const intAttr = (name, value) => msg(5, str(1, name), int(3, value), int(20, 2));
function tensor(name, dataType, dims, raw) {
  return msg(5, ...dims.map((d) => int(1, d)), int(2, dataType), str(8, name), len(9, raw));
}

const table = new Float32Array(rows.flat());
const axes = new BigInt64Array([2n]);
const graph = bytes(
  node('Gather', ['embeddings', 'input_ids'], ['gathered']),
  node('Tanh', ['gathered'], ['squashed']),
  node('Cast', ['attention_mask'], ['mask_f'], intAttr('to', FLOAT)),
  node('Unsqueeze', ['mask_f', 'unsqueeze_axes'], ['mask_3d']),
  node('Mul', ['squashed', 'mask_3d'], ['last_hidden_state']),
  str(2, 'loci_fixture_embed'),
  tensor('embeddings', FLOAT, [vocab.length, HIDDEN], new Uint8Array(table.buffer)),
  tensor('unsqueeze_axes', INT64, [1], new Uint8Array(axes.buffer)),
  valueInfo(11, 'input_ids', INT64, ['batch', 'sequence']),
  valueInfo(11, 'attention_mask', INT64, ['batch', 'sequence']),
  valueInfo(11, 'token_type_ids', INT64, ['batch', 'sequence']),
  valueInfo(12, 'last_hidden_state', FLOAT, ['batch', 'sequence', HIDDEN]),
);
const model = bytes(
  int(1, 8), // ir_version 8
  str(2, 'loci make-fixture-embedder'),
  str(3, '1'),
  msg(7, graph),
  msg(8, str(1, ''), int(2, 13)), // opset 13 (Unsqueeze takes axes as an input)
);

// ---- tokenizer + configs ----
const ids = Object.fromEntries(vocab.map((t, i) => [t, i]));
const special = (t) => ({
  id: ids[t],
  content: t,
  single_word: false,
  lstrip: false,
  rstrip: false,
  normalized: false,
  special: true,
});
const tokenizer = {
  version: '1.0',
  truncation: null,
  padding: null,
  added_tokens: SPECIAL.map(special),
  normalizer: {
    type: 'BertNormalizer',
    clean_text: true,
    handle_chinese_chars: true,
    strip_accents: null,
    lowercase: true,
  },
  pre_tokenizer: { type: 'BertPreTokenizer' },
  post_processor: {
    type: 'TemplateProcessing',
    single: [
      { SpecialToken: { id: '[CLS]', type_id: 0 } },
      { Sequence: { id: 'A', type_id: 0 } },
      { SpecialToken: { id: '[SEP]', type_id: 0 } },
    ],
    pair: [
      { SpecialToken: { id: '[CLS]', type_id: 0 } },
      { Sequence: { id: 'A', type_id: 0 } },
      { SpecialToken: { id: '[SEP]', type_id: 0 } },
      { Sequence: { id: 'B', type_id: 1 } },
      { SpecialToken: { id: '[SEP]', type_id: 1 } },
    ],
    special_tokens: Object.fromEntries(
      ['[CLS]', '[SEP]'].map((t) => [t, { id: t, ids: [ids[t]], tokens: [t] }]),
    ),
  },
  decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
  model: {
    type: 'WordPiece',
    unk_token: '[UNK]',
    continuing_subword_prefix: '##',
    max_input_chars_per_word: 100,
    vocab: ids,
  },
};
const tokenizerConfig = {
  tokenizer_class: 'BertTokenizer',
  do_lower_case: true,
  model_max_length: 512,
  cls_token: '[CLS]',
  sep_token: '[SEP]',
  pad_token: '[PAD]',
  unk_token: '[UNK]',
  mask_token: '[MASK]',
  clean_up_tokenization_spaces: true,
};
const config = {
  model_type: 'bert',
  architectures: ['BertModel'],
  hidden_size: HIDDEN,
  vocab_size: vocab.length,
  num_attention_heads: 1,
  num_hidden_layers: 1,
  max_position_embeddings: 512,
  type_vocab_size: 2,
  loci_fixture: { clusters: Object.keys(CLUSTERS), generator: 'scripts/make-fixture-embedder.mjs' },
};

mkdirSync(join(OUT, 'onnx'), { recursive: true });
writeFileSync(join(OUT, 'onnx/model.onnx'), model);
// The same fp32 graph under the q8 name: transformers.js picks model_quantized.onnx for dtype q8
// (the wasm default), and the fixture must load under either dtype with identical vectors.
writeFileSync(join(OUT, 'onnx/model_quantized.onnx'), model);
writeFileSync(join(OUT, 'tokenizer.json'), JSON.stringify(tokenizer));
writeFileSync(join(OUT, 'tokenizer_config.json'), JSON.stringify(tokenizerConfig, null, 2) + '\n');
writeFileSync(join(OUT, 'config.json'), JSON.stringify(config, null, 2) + '\n');
console.log(`wrote ${OUT}: ${vocab.length} tokens × ${HIDDEN} dims, model ${model.length} bytes`);
