/**
 * The chat-model catalog: which of web-llm's prebuilt models Loci recommends, what each needs,
 * and whether this device can run it (rules E1–E6 in docs/spec/engines.md). Pure: the list of
 * records and the device verdict come in as arguments.
 */
import type { DeviceVerdict } from '../capability/gpu-probe';
import type { Tokens } from '../units';
import type { CatalogModelRecord } from './model-record';

export type Quantization = 'q4f16_1' | 'q4f32_1';

export type CatalogVerdict =
  | { type: 'runs_well'; reason: string }
  | { type: 'may_be_slow'; reason: string }
  | { type: 'wont_run'; reason: string };

export interface CatalogEntry {
  /** The model without its quantization suffix, e.g. `Qwen2.5-1.5B-Instruct`. */
  baseId: string;
  /** Human label, e.g. `Qwen2.5 1.5B`. */
  label: string;
  family: ModelFamily;
  /** Parameters in billions, parsed from the id. */
  paramsB: number;
  /** The build for this device (q4f16 when the GPU has shader-f16, else q4f32). */
  modelId: string;
  quantization: Quantization;
  /** Estimated download in bytes (see {@link estimateDownloadBytes}). */
  downloadBytes: number;
  vramMB: number;
  contextWindow: Tokens;
  /** The other build of the same model, if the list has one. */
  alternateModelId?: string;
  verdict: CatalogVerdict;
}

export type ModelFamily = 'qwen2.5' | 'qwen3' | 'llama3.2' | 'phi3.5' | 'smollm2' | 'gemma2';

/** Context window when a record does not override it (web-llm's own default). */
export const DEFAULT_CONTEXT_WINDOW: Tokens = 4096;
/** Only models at or below this size are recommended: bigger ones do not fit typical GPUs. */
export const MAX_PARAMS_B = 4;
/** Smallest useful window for the memory tiers; `-1k` builds are left out. */
export const MIN_CONTEXT_WINDOW: Tokens = 4096;

// One pattern per family: the id must start with it and be an instruct/chat build. Qwen3 ids have
// no "Instruct" because the base release is the chat model.
const FAMILIES: { family: ModelFamily; pattern: RegExp; label: string }[] = [
  { family: 'qwen2.5', pattern: /^Qwen2\.5-(\d+(?:\.\d+)?)B-Instruct$/, label: 'Qwen2.5' },
  { family: 'qwen3', pattern: /^Qwen3-(\d+(?:\.\d+)?)B$/, label: 'Qwen3' },
  { family: 'llama3.2', pattern: /^Llama-3\.2-(\d+(?:\.\d+)?)B-Instruct$/, label: 'Llama 3.2' },
  { family: 'phi3.5', pattern: /^Phi-3\.5-mini-instruct$/, label: 'Phi-3.5 mini' },
  { family: 'smollm2', pattern: /^SmolLM2-(\d+(?:\.\d+)?)([BM])-Instruct$/, label: 'SmolLM2' },
  { family: 'gemma2', pattern: /^gemma-2-(\d+(?:\.\d+)?)b-it$/, label: 'Gemma 2' },
];
// Phi-3.5-mini has no size in its id; its model card says 3.8B parameters.
const PHI35_MINI_PARAMS_B = 3.8;

/**
 * Estimated download size. web-llm records carry no byte count, so it is computed from the
 * parameter count: q4 group quantization stores 4 bits per weight plus one scale per 32 weights
 * (f16 → 4.5 bits/weight, f32 → 5 bits/weight), plus ~8 % for embeddings kept at higher precision,
 * tokenizer and config files. A rough figure for the UI ("about 0.9 GB"); the download progress
 * shows the real total once web-llm has read the shard list.
 */
export function estimateDownloadBytes(paramsB: number, quantization: Quantization): number {
  const bitsPerWeight = quantization === 'q4f16_1' ? 4.5 : 5;
  return Math.round(((paramsB * 1e9 * bitsPerWeight) / 8) * 1.08);
}

/**
 * The VRAM this device can give a model, estimated from the GPU's largest buffer. WebGPU does not
 * expose VRAM; browsers report `maxBufferSize` of 1–4 GiB on desktop GPUs (often a quarter to a
 * half of their memory) and 256 MiB–1 GiB on phones. Twice the largest buffer is the budget; this
 * is a heuristic, so a model between 60 % and 100 % of it is called "may be slow", not "runs well".
 */
export function deviceVramBudgetMB(maxBufferBytes: number): number {
  return (2 * maxBufferBytes) / (1024 * 1024);
}

interface Parsed {
  baseId: string;
  quantization: Quantization;
  family: ModelFamily;
  label: string;
  paramsB: number;
}

function parseRecord(record: CatalogModelRecord): Parsed | null {
  if (record.model_type !== undefined && record.model_type !== 0) return null;
  const match = /^(.*)-(q4f16_1|q4f32_1)-MLC$/.exec(record.model_id);
  if (!match) return null;
  const baseId = match[1] ?? '';
  const quantization = match[2] as Quantization;
  for (const { family, pattern, label } of FAMILIES) {
    const m = pattern.exec(baseId);
    if (!m) continue;
    const size = m[1] === undefined ? PHI35_MINI_PARAMS_B : Number(m[1]);
    const paramsB = m[2] === 'M' ? size / 1000 : size;
    const sizeLabel = family === 'phi3.5' ? '' : m[2] === 'M' ? ` ${m[1]}M` : ` ${m[1]}B`;
    return { baseId, quantization, family, label: `${label}${sizeLabel}`, paramsB };
  }
  return null;
}

function contextWindowOf(record: CatalogModelRecord): Tokens {
  return record.overrides?.context_window_size ?? DEFAULT_CONTEXT_WINDOW;
}

/**
 * Builds the catalog from web-llm's model list for a device. Recommended: small (≤ 4B) instruct
 * chat models of the families above, in q4f16_1/q4f32_1, with at least a 4k window. One entry per
 * model, showing the build this device should use; sorted by size.
 */
export function buildCatalog(
  records: readonly CatalogModelRecord[],
  device: DeviceVerdict,
): CatalogEntry[] {
  const byBase = new Map<
    string,
    { parsed: Parsed; builds: Map<Quantization, CatalogModelRecord> }
  >();
  for (const record of records) {
    const parsed = parseRecord(record);
    if (!parsed || parsed.paramsB > MAX_PARAMS_B) continue;
    if (contextWindowOf(record) < MIN_CONTEXT_WINDOW) continue;
    const group = byBase.get(parsed.baseId) ?? { parsed, builds: new Map() };
    group.builds.set(parsed.quantization, record);
    byBase.set(parsed.baseId, group);
  }
  const wanted: Quantization = device.llm.type === 'gpu' ? device.llm.quantization : 'q4f16_1';
  const entries: CatalogEntry[] = [];
  for (const { parsed, builds } of byBase.values()) {
    const record = builds.get(wanted) ?? builds.get(wanted === 'q4f16_1' ? 'q4f32_1' : 'q4f16_1');
    if (!record) continue;
    const quantization = parseRecord(record)?.quantization ?? wanted;
    const alternate = [...builds.values()].find((r) => r !== record);
    const vramMB = Math.round(record.vram_required_MB ?? 0);
    entries.push({
      baseId: parsed.baseId,
      label: parsed.label,
      family: parsed.family,
      paramsB: parsed.paramsB,
      modelId: record.model_id,
      quantization,
      downloadBytes: estimateDownloadBytes(parsed.paramsB, quantization),
      vramMB,
      contextWindow: contextWindowOf(record),
      ...(alternate ? { alternateModelId: alternate.model_id } : {}),
      verdict: judgeModel(record, vramMB, device),
    });
  }
  return entries.sort((a, b) => a.paramsB - b.paramsB || a.baseId.localeCompare(b.baseId));
}

/** The verdict for one build on one device (rules E2–E5). */
export function judgeModel(
  record: CatalogModelRecord,
  vramMB: number,
  device: DeviceVerdict,
): CatalogVerdict {
  const llm = device.llm;
  if (llm.type === 'none') {
    switch (llm.reason) {
      case 'no_webgpu':
        return {
          type: 'wont_run',
          reason: 'This browser has no WebGPU, which the chat model needs.',
        };
      case 'no_adapter':
        return { type: 'wont_run', reason: 'No usable GPU was found on this device.' };
      case 'software_adapter':
        return {
          type: 'wont_run',
          reason: 'Only a software GPU is available here; it is far too slow for a chat model.',
        };
      case 'probe_failed':
        return { type: 'wont_run', reason: 'Checking the GPU failed, so the chat model is off.' };
    }
  }
  const needsF16 =
    (record.required_features ?? []).includes('shader-f16') || /q4f16|q0f16/.test(record.model_id);
  if (needsF16 && llm.quantization !== 'q4f16_1') {
    return {
      type: 'wont_run',
      reason: 'This build needs 16-bit shaders (shader-f16), which this GPU lacks.',
    };
  }
  if (record.buffer_size_required_bytes && record.buffer_size_required_bytes > llm.maxBufferBytes) {
    return { type: 'wont_run', reason: 'It needs a larger GPU buffer than this GPU allows.' };
  }
  const budget = deviceVramBudgetMB(llm.maxBufferBytes);
  const need = `about ${formatGB(vramMB)} of GPU memory`;
  if (vramMB > budget * 1.5) {
    return { type: 'wont_run', reason: `It needs ${need}, far more than this GPU seems to have.` };
  }
  if (vramMB > budget * 0.6) {
    return {
      type: 'may_be_slow',
      reason: `It needs ${need}, close to or above what this GPU seems to have.`,
    };
  }
  return { type: 'runs_well', reason: `It needs ${need}, well within this GPU's limits.` };
}

function formatGB(mb: number): string {
  return `${(mb / 1024).toFixed(1)} GB`;
}
