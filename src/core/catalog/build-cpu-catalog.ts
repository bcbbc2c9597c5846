/**
 * The CPU catalog for this device (rules E48–E50): each GGUF model with its download, memory
 * need and a speed verdict from the cores, memory and cross-origin isolation the browser reports.
 * Pure: the device facts come in as arguments.
 */
import type { CatalogVerdict } from './build-catalog';
import type { CpuModelRecord } from './cpu-models';

/** What the browser says about the CPU side of this device. */
export interface CpuDevice {
  /** `navigator.hardwareConcurrency`. */
  cores: number;
  /** `navigator.deviceMemory` in GB (Chrome caps it at 8), or null where the browser hides it. */
  memoryGB: number | null;
  /** `crossOriginIsolated`: without it llama.cpp runs on one thread. */
  isolated: boolean;
}

export interface CpuCatalogEntry extends CpuModelRecord {
  /** RAM the tab needs while it runs: weights plus KV cache and buffers. */
  memoryMB: number;
  threads: number;
  verdict: CatalogVerdict;
}

/**
 * Threads llama.cpp gets (rule E42): one where the page is not cross-origin isolated; else half
 * the logical cores — the physical ones on a machine with two threads per core — but two wherever
 * there are two, at most 8, unless the model entry asks for a count. Half of two left a two-core
 * machine's prefill at half of what both cores give (ADR 0210). The CPU engine loads with this.
 */
export function cpuThreads(device: CpuDevice, wanted?: number): number {
  if (!device.isolated) return 1;
  const half = Math.max(Math.min(2, device.cores), Math.floor(device.cores / 2));
  return Math.max(1, Math.min(8, wanted ?? half));
}

// Decode on WebAssembly SIMD is memory-bound: about 2 GB/s of weights read per thread-second on
// a current laptop core (wllama and llama.cpp wasm reports), so tokens/s ≈ threads × 2 GB / size.
const BYTES_PER_THREAD_SECOND = 2e9;

/** Tokens per second to expect when decoding, roughly (an order of magnitude, not a promise). */
export function estimateDecodeTokensPerSecond(entry: CpuModelRecord, threads: number): number {
  return (Math.min(threads, 4) * BYTES_PER_THREAD_SECOND) / entry.downloadBytes;
}

export function buildCpuCatalog(
  records: readonly CpuModelRecord[],
  device: CpuDevice,
): CpuCatalogEntry[] {
  const threads = cpuThreads(device);
  return records.map((record) => {
    // Weights are mapped once; KV cache for a 4k window and compute buffers add ~25 %.
    const memoryMB = Math.round((record.downloadBytes * 1.25) / 1e6);
    return {
      ...record,
      memoryMB,
      threads,
      verdict: judgeCpuModel(record, memoryMB, threads, device),
    };
  });
}

function judgeCpuModel(
  record: CpuModelRecord,
  memoryMB: number,
  threads: number,
  device: CpuDevice,
): CatalogVerdict {
  const memory = device.memoryGB;
  if (memory !== null && memoryMB > memory * 1024 * 0.6) {
    return {
      type: 'wont_run',
      reason: `It needs about ${(memoryMB / 1024).toFixed(1)} GB of memory; this device reports ${memory} GB.`,
    };
  }
  const speed = estimateDecodeTokensPerSecond(record, threads);
  const threadText = threads === 1 ? 'one thread' : `${threads} threads`;
  const words = `roughly ${speed < 2 ? speed.toFixed(1) : Math.round(speed)} tokens a second on ${threadText} (an estimate)`;
  if (speed >= 6) {
    return { type: 'runs_well', reason: `Runs on the processor: ${words}.` };
  }
  return {
    type: 'may_be_slow',
    reason: `Runs on the processor but slowly: ${words}${device.isolated ? '' : ' (this page is not cross-origin isolated, so only one thread)'}.`,
  };
}

/**
 * The CPU model to recommend: the most preferred one that runs well (the records' `preference`),
 * else the smallest (rule E50).
 */
export function pickCpuModel(entries: readonly CpuCatalogEntry[]): CpuCatalogEntry | null {
  const rank = (e: CpuCatalogEntry) => e.preference ?? Number.MAX_SAFE_INTEGER;
  const well = entries.filter((e) => e.verdict.type === 'runs_well');
  if (well.length > 0) return [...well].sort((a, b) => rank(a) - rank(b))[0] ?? null;
  const usable = entries.filter((e) => e.verdict.type !== 'wont_run');
  return [...usable].sort((a, b) => a.paramsB - b.paramsB)[0] ?? null;
}
