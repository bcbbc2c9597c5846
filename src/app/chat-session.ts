import type { WorkerLlmEngine } from '../adapters/llm/worker-llm-engine';
import type { DexieMemoryStore } from '../adapters/storage/dexie/index';
import type { AgentDeps } from '../core/agent/agent-deps';
import { AppError } from '../core/errors';
import { recoverInterruptedTurns } from '../core/agent/recover-turns';
import { runTurn } from '../core/agent/run-turn';
import type { TurnEvent } from '../core/agent/turn-events';
import type { Clock, IdSource } from '../core/ports/clock';
import type { TurnLock } from '../core/ports/turn-lock';
import type { LociMemorySearch } from '../core/search/memory-search';
import { createForgettingStrategy } from '../core/strategies/forgetting';
import { createRecencyStrategy } from '../core/strategies/recency';
import { createWindowStrategy } from '../core/strategies/window';
import type { BackgroundEmbedding } from '../ui/state/background-embedding.svelte';
import { ChatSession } from '../ui/state/chat-session.svelte';
import type { ConversationsState } from '../ui/state/conversations.svelte';
import type { DocumentsState } from '../ui/state/documents.svelte';
import type { Highlights } from '../ui/state/highlights.svelte';
import type { ModelManagerView } from '../ui/state/model-manager.svelte';
import type { ReadSpeedSource } from '../ui/state/read-speed-book';
import { modelLabel } from '../ui/components/models/model-label';

export interface AppChatDeps {
  store: DexieMemoryStore;
  search: LociMemorySearch;
  engine: WorkerLlmEngine;
  clock: Clock;
  ids: IdSource;
  lock: TurnLock;
  highlights: Highlights;
  models: ModelManagerView;
  conversations: ConversationsState;
  documents: DocumentsState;
  embedding: BackgroundEmbedding;
  /** Told whenever a turn ends (a queued app update may install, storage may be asked for). */
  onGenerationEnded: () => void;
  /** Sees every turn event before the chat does (the e2e build records the plans). */
  observe?: (event: TurnEvent) => void;
  /** "Fast replies" is chosen on this device (A44). */
  fastReplies?: () => boolean;
  /** This device's read speeds, remembered across chats (A43). */
  speeds?: ReadSpeedSource;
}

/**
 * The chat: runs each turn with the agent's own model loaded, names a new chat after its first
 * message, and prepares an agent on open (interrupted turns, an import a closed tab left, the
 * search index, the embedding catch-up).
 */
export function startChatSession(deps: AppChatDeps): ChatSession {
  const { store, search, lock, clock, models, conversations, documents, embedding } = deps;
  const agent: AgentDeps = {
    store,
    search,
    engine: deps.engine,
    clock,
    ids: deps.ids,
    lock,
    strategies: {
      forgetting: createForgettingStrategy(),
      recency: createRecencyStrategy(),
      window: createWindowStrategy(),
    },
  };
  return new ChatSession({
    store,
    search,
    lock,
    highlights: deps.highlights,
    modelReady: () => models.state.loaded !== null,
    modelLoading: () => models.state.busy !== null,
    modelFailure: () => {
      const failed = models.error;
      if (failed?.during !== 'load') return null;
      return {
        modelId: failed.modelId,
        label: modelLabel(models, failed.modelId),
        code: failed.code,
        what: failed.what,
        action: failed.action,
      };
    },
    retryModel: (modelId) => void models.download(modelId),
    run: async (agentId, trigger, options) => {
      // Each agent may keep a model of its own (Agent.modelId): load it before the turn, so the
      // plan uses its window. A load that fails stops here, before anything is stored.
      const wanted = (await store.getAgent(agentId))?.modelId ?? null;
      if (wanted && models.state.loaded !== wanted && !(await models.download(wanted))) {
        throw new AppError(
          'model_load_failed',
          `This agent's model (${wanted}) could not be loaded: ${models.error?.what ?? ''}`,
        );
      }
      const { observe } = deps;
      // The model that answers is loaded now: how fast it reads here sizes a fast reply (A44).
      const { recallCapFor, ...rest } = options;
      const recallCap = recallCapFor?.(models.state.loaded) ?? null;
      const outcome = await runTurn(agent, agentId, trigger, {
        ...rest,
        ...(recallCap !== null ? { recallCap } : {}),
        onEvent: (event) => {
          observe?.(event);
          options.onEvent?.(event);
        },
      });
      // A new chat takes its title from its first message (U187).
      if (trigger.type === 'user_message' && outcome.turnId !== null && options.conversationId)
        await conversations.nameFromFirstMessage(options.conversationId, trigger.text);
      return outcome;
    },
    prepare: async (agentId) => {
      // Only a tab that can take the lock may relabel `running` turns: in another tab they are live.
      const release = await lock.acquire(agentId);
      if (release) {
        try {
          await recoverInterruptedTurns(store, agentId, clock);
          // What a closed tab left of an import, before the index loads (D39).
          await documents.sweep(agentId);
        } finally {
          await release();
        }
      }
      if (search.agentId !== agentId) await search.loadAgent(agentId);
      // After a model switch: old memories get vectors from the new model, in the background.
      void embedding.run(agentId);
    },
    onGenerationEnded: deps.onGenerationEnded,
    ...(deps.fastReplies ? { fastReplies: deps.fastReplies } : {}),
    ...(deps.speeds ? { speeds: deps.speeds } : {}),
  });
}
