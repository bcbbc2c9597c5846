/**
 * The guided first run on Home (rules U191–U194, ADR 0105): on a profile with no agent, name
 * yourself and your companion, take the model recommended for this device, and say hello. The
 * choice of model is pure ({@link firstRunModel}); {@link FirstRunState} stores what the user
 * typed through the store port and starts the model loading.
 */
import { DISPLAY_NAME_CHARS, DISPLAY_NAME_SETTING } from '../../core/agent/display-names';
import type { CatalogEntry } from '../../core/catalog/build-catalog';
import { pickCpuModel, type CpuCatalogEntry } from '../../core/catalog/build-cpu-catalog';
import { pickDefaultModel } from '../../core/catalog/pick-default-model';
import type { Agent, AgentKind } from '../../core/model';
import type { ModelStatus } from '../../core/ports/model-downloads';
import { describeError } from '../error-copy';

/** Store setting: the user pressed "Skip" (the first run never comes back, U193). */
export const FIRST_RUN_SKIPPED_SETTING = 'ui.firstRunSkipped';
/** The companion's name when the field is left empty. */
export const DEFAULT_COMPANION_NAME = 'Loci';

/** The model the first run offers, and what one click does with it. */
export interface FirstRunModel {
  modelId: string;
  label: string;
  /** The download, in bytes (0 when unknown, e.g. a model only the engine knows). */
  bytes: number;
  /** Where it runs: the GPU (WebGPU) or the processor (llama.cpp). */
  runsOn: 'gpu' | 'cpu';
  /** `loaded`: nothing to do; `cached`: a load, no download; `download`: a download, then a load. */
  state: 'loaded' | 'cached' | 'download';
  /** Why this one: the catalog's verdict in words (empty for a model the user already has). */
  reason: string;
}

export interface FirstRunModelInput {
  /** The model loaded in the engine now, if any. */
  loaded: string | null;
  statuses: Readonly<Record<string, ModelStatus>>;
  gpu: readonly CatalogEntry[];
  cpu: readonly CpuCatalogEntry[];
  /** Whether this device has a usable GPU; null while the probe runs. */
  gpuUsable: boolean | null;
}

const isServer = (modelId: string) => modelId.startsWith('server:');

/**
 * The model to offer (U192): one already loaded, else one already downloaded (the recommended
 * one first), else the recommendation for this device — the preferred GPU model where WebGPU
 * runs, the preferred CPU model where it does not. Null while the device check runs, or when
 * nothing can run here.
 */
export function firstRunModel(input: FirstRunModelInput): FirstRunModel | null {
  if (input.gpuUsable === null) return null;
  const gpu = input.gpuUsable ? input.gpu.filter((e) => e.verdict.type !== 'wont_run') : [];
  const cpu = input.cpu.filter((e) => e.verdict.type !== 'wont_run');
  const describe = (
    entry: CatalogEntry | CpuCatalogEntry,
    runsOn: 'gpu' | 'cpu',
    state: FirstRunModel['state'],
  ): FirstRunModel => ({
    modelId: entry.modelId,
    label: entry.label,
    bytes: entry.downloadBytes,
    runsOn,
    state,
    reason: state === 'download' ? entry.verdict.reason : '',
  });
  const find = (modelId: string) => {
    const g = gpu.find((e) => e.modelId === modelId);
    if (g) return { entry: g, runsOn: 'gpu' as const };
    const c = cpu.find((e) => e.modelId === modelId);
    return c ? { entry: c, runsOn: 'cpu' as const } : null;
  };

  if (input.loaded && !isServer(input.loaded)) {
    const known = find(input.loaded);
    return known
      ? describe(known.entry, known.runsOn, 'loaded')
      : {
          modelId: input.loaded,
          label: input.loaded,
          bytes: 0,
          runsOn: 'cpu',
          state: 'loaded',
          reason: '',
        };
  }

  const recommended: { entry: CatalogEntry | CpuCatalogEntry; runsOn: 'gpu' | 'cpu' } | null =
    (() => {
      const g = input.gpuUsable ? pickDefaultModel(gpu) : null;
      if (g) return { entry: g, runsOn: 'gpu' as const };
      const c = pickCpuModel(cpu);
      return c ? { entry: c, runsOn: 'cpu' as const } : null;
    })();

  const cached = (modelId: string) => input.statuses[modelId]?.type === 'cached';
  if (recommended && cached(recommended.entry.modelId)) {
    return describe(recommended.entry, recommended.runsOn, 'cached');
  }
  const anyCached = [
    ...gpu.map((entry) => ({ entry, runsOn: 'gpu' as const })),
    ...cpu.map((entry) => ({ entry, runsOn: 'cpu' as const })),
  ].find(({ entry }) => cached(entry.modelId));
  if (anyCached) return describe(anyCached.entry, anyCached.runsOn, 'cached');

  return recommended ? describe(recommended.entry, recommended.runsOn, 'download') : null;
}

/** A name as typed: spaces collapsed and trimmed, at most {@link DISPLAY_NAME_CHARS}. */
export function cleanName(value: string): string {
  return value.replace(/\s+/g, ' ').trim().slice(0, DISPLAY_NAME_CHARS).trim();
}

/** What the first run needs of the store (the settings table, through the port). */
export interface FirstRunSettings {
  getSetting<T>(key: string): Promise<T | undefined>;
  setSetting(key: string, value: unknown): Promise<void>;
}

/** What it needs of the agent list. */
export interface FirstRunAgents {
  readonly loaded: boolean;
  readonly list: readonly Agent[];
  create(input: { name: string; kind: AgentKind; human?: string }): Promise<Agent>;
}

export interface FirstRunDeps {
  settings: FirstRunSettings;
  agents: FirstRunAgents;
  /** Downloads (when needed) and loads a model; resolves false on failure (the Models screen says why). */
  loadModel: (modelId: string) => Promise<boolean>;
  /** Opens the chat. */
  openChat: () => void;
}

export interface HelloInput {
  /** What the companion should call the user; empty means no name. */
  you: string;
  /** The companion's name; empty means {@link DEFAULT_COMPANION_NAME}. */
  companion: string;
  /** The model to load, or null to chat with none yet. */
  model: FirstRunModel | null;
}

export class FirstRunState {
  /** Whether the skip setting has been read. */
  ready = $state(false);
  skipped = $state(false);
  /** True from "Say hello" until the agent exists (the button is disabled meanwhile). */
  busy = $state(false);
  error = $state<string | null>(null);

  constructor(private readonly deps: FirstRunDeps) {}

  async start(): Promise<void> {
    this.skipped =
      (await this.deps.settings.getSetting<boolean>(FIRST_RUN_SKIPPED_SETTING)) === true;
    this.ready = true;
  }

  /** Shown on a profile with no agent that has not skipped it (U191, U193). */
  get visible(): boolean {
    return (
      this.ready && this.deps.agents.loaded && this.deps.agents.list.length === 0 && !this.skipped
    );
  }

  async skip(): Promise<void> {
    this.skipped = true;
    await this.deps.settings.setSetting(FIRST_RUN_SKIPPED_SETTING, true);
  }

  /**
   * Stores the user's display name (when given), creates the companion with that name in its
   * `human` block and a persona in its own name, opens the chat, and starts the model loading
   * without waiting for it (U192).
   */
  async sayHello(input: HelloInput): Promise<Agent | null> {
    if (this.busy) return null;
    this.busy = true;
    this.error = null;
    try {
      const you = cleanName(input.you);
      const name = cleanName(input.companion) || DEFAULT_COMPANION_NAME;
      if (you !== '') await this.deps.settings.setSetting(DISPLAY_NAME_SETTING, you);
      const agent = await this.deps.agents.create({
        name,
        kind: 'companion',
        ...(you !== '' ? { human: `Name: ${you}.` } : {}),
      });
      this.deps.openChat();
      const model = input.model;
      if (model && model.state !== 'loaded') void this.deps.loadModel(model.modelId);
      return agent;
    } catch (error) {
      const copy = describeError(error);
      this.error = `${copy.what} ${copy.action}`;
      return null;
    } finally {
      this.busy = false;
    }
  }
}
