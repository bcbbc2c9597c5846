/**
 * The agent list and the active agent (rules U10–U14): create, rename, delete and edit the
 * persona, all through `MemoryStore.apply`, and a live list (Dexie live queries propagate
 * changes made in other tabs).
 */
import { isMemoryCheckAgent } from '../../eval/run-memory-check';
import type { QuerySubscription } from '../../core/ports/live-queries';
import { createAgentRecord } from '../../core/agent/create-agent-record';
import { AppError } from '../../core/errors';
import type { Agent, AgentId, AgentKind } from '../../core/model';
import type { Clock } from '../../core/ports/clock';
import type { MemoryStore } from '../../core/ports/memory-store';

const ACTIVE_KEY = 'ui.activeAgent';

export const AGENT_KINDS: { kind: AgentKind; label: string; hint: string }[] = [
  { kind: 'companion', label: 'Companion', hint: 'A long-running personal conversation.' },
  { kind: 'notebook', label: 'Notebook', hint: 'Questions over your notes and documents.' },
  { kind: 'writer', label: 'Writing project', hint: 'A co-writer that remembers the story.' },
  {
    kind: 'fiction',
    label: 'Interactive fiction',
    hint: 'A first-person story where you choose what happens.',
  },
];

export interface AgentsDeps {
  store: MemoryStore;
  clock: Clock;
  newId: () => string;
  /** Told once an agent is stored (the app asks for persistent storage then, P20). */
  onCreated?: (agent: Agent) => void;
  /** The models an agent can be set to use (loadable here now: CPU, cached GPU, your server). */
  modelChoices?: () => ModelChoice[];
}

/** A model an agent can use, for its settings. */
export interface ModelChoice {
  modelId: string;
  label: string;
}

export class AgentsState {
  list = $state.raw<Agent[]>([]);
  activeId = $state<AgentId | null>(null);
  loaded = $state(false);

  private subscription: QuerySubscription | null = null;

  constructor(private readonly deps: AgentsDeps) {}

  get active(): Agent | null {
    return this.list.find((a) => a.id === this.activeId) ?? null;
  }

  /** Starts the live list and restores the last active agent. */
  async start(): Promise<void> {
    const stored = await this.deps.store.getSetting<AgentId>(ACTIVE_KEY);
    const first = await this.deps.store.listAgents();
    this.apply(first, stored ?? null);
    this.loaded = true;
    this.subscription = this.deps.store.watch(() => this.deps.store.listAgents(), {
      next: (agents) => this.apply(agents, this.activeId),
      error: (error: unknown) => console.error('agents live query failed', error),
    });
  }

  stop(): void {
    this.subscription?.unsubscribe();
    this.subscription = null;
  }

  private apply(agents: Agent[], wanted: AgentId | null): void {
    // A memory check's temporary agent is never one of the user's (V14).
    const sorted = agents
      .filter((a) => !isMemoryCheckAgent(a.id))
      .sort((a, b) => a.createdAt - b.createdAt);
    this.list = sorted;
    const keep = sorted.some((a) => a.id === wanted) ? wanted : (sorted[0]?.id ?? null);
    this.activeId = keep;
  }

  async select(id: AgentId): Promise<void> {
    this.activeId = id;
    await this.deps.store.setSetting(ACTIVE_KEY, id);
  }

  async create(input: {
    name: string;
    kind: AgentKind;
    persona?: string;
    /** What the `human` block starts with (the first run writes the user's name there). */
    human?: string;
  }): Promise<Agent> {
    const name = input.name.trim();
    if (name === '') throw new AppError('invalid_argument', 'An agent needs a name.');
    const persona = input.persona?.trim() || undefined;
    const human = input.human?.trim() || undefined;
    const { agent, changes } = createAgentRecord({
      id: this.deps.newId(),
      name,
      kind: input.kind,
      now: this.deps.clock.now(),
      ...(persona ? { persona } : {}),
      ...(human ? { human } : {}),
    });
    await this.deps.store.apply(changes);
    this.deps.onCreated?.(agent);
    this.list = [...this.list.filter((a) => a.id !== agent.id), agent];
    await this.select(agent.id);
    return agent;
  }

  async rename(id: AgentId, name: string): Promise<void> {
    const agent = await this.require(id);
    const trimmed = name.trim();
    if (trimmed === '') throw new AppError('invalid_argument', 'An agent needs a name.');
    const updated = { ...agent, name: trimmed, updatedAt: this.deps.clock.now() };
    await this.deps.store.apply({ agents: [updated] });
    this.list = this.list.map((a) => (a.id === id ? updated : a));
  }

  /** The models this agent's settings offer. */
  modelChoices(): ModelChoice[] {
    return this.deps.modelChoices?.() ?? [];
  }

  /**
   * Sets the model this agent chats with (`Agent.modelId`; null: whichever is loaded). The next
   * turn loads it first, and its window becomes the agent's.
   */
  async setModel(id: AgentId, modelId: string | null): Promise<void> {
    const agent = await this.require(id);
    const updated = { ...agent, modelId, updatedAt: this.deps.clock.now() };
    await this.deps.store.apply({ agents: [updated] });
    this.list = this.list.map((a) => (a.id === id ? updated : a));
  }

  /**
   * Saves a new persona: the agent record and the `persona` core block (what the model sees),
   * as a user edit in the block's history so it can be reverted.
   */
  async setPersona(id: AgentId, persona: string): Promise<void> {
    const agent = await this.require(id);
    const now = this.deps.clock.now();
    const updated = { ...agent, persona, updatedAt: now };
    const block = await this.deps.store.getBlock(id, 'persona');
    if (block && block.value !== persona) {
      if (persona.length > block.charLimit) {
        throw new AppError(
          'invalid_argument',
          `The persona has ${persona.length} characters; its block holds ${block.charLimit}.`,
        );
      }
      const version = block.version + 1;
      await this.deps.store.apply({
        agents: [updated],
        blocks: [
          {
            block: { ...block, value: persona, version, updatedAt: now },
            history: {
              agentId: id,
              label: 'persona',
              version,
              value: persona,
              source: { type: 'user' },
              at: now,
            },
          },
        ],
      });
    } else {
      await this.deps.store.apply({ agents: [updated] });
    }
    this.list = this.list.map((a) => (a.id === id ? updated : a));
  }

  async remove(id: AgentId): Promise<void> {
    await this.deps.store.deleteAgent(id);
    const rest = this.list.filter((a) => a.id !== id);
    this.apply(rest, this.activeId === id ? (rest[0]?.id ?? null) : this.activeId);
    if (this.activeId) await this.deps.store.setSetting(ACTIVE_KEY, this.activeId);
  }

  private async require(id: AgentId): Promise<Agent> {
    const agent = await this.deps.store.getAgent(id);
    if (!agent) throw new AppError('not_found', `Agent ${id} no longer exists.`);
    return agent;
  }
}
