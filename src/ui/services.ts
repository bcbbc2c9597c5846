import type { MemorySearch } from '../core/ports/memory-search';
import type { MemoryStore } from '../core/ports/memory-store';
import type { TurnLock } from '../core/ports/turn-lock';
import type { WriterDeps } from '../core/writer/writer-deps';
import type { AgentsState } from './state/agents.svelte';
import type { ChatSession } from './state/chat-session.svelte';
import type { DeviceState } from './state/device.svelte';
import type { DocumentsState } from './state/documents.svelte';
import type { Highlights } from './state/highlights.svelte';
import type { ModelManagerView } from './state/model-manager.svelte';
import type { PwaState } from './state/pwa.svelte';
import type { Router } from './state/router.svelte';

/** What needs the memory store; absent when storage could not be opened. */
export interface MemoryServices {
  store: MemoryStore;
  search: MemorySearch;
  agents: AgentsState;
  session: ChatSession;
  highlights: Highlights;
  /** What the writing screen's sessions run on (the same store, search, engine and lock). */
  writer: WriterDeps & { lock: TurnLock };
  /** Document imports, delete and re-embed (the Documents screen). */
  documents: DocumentsState;
}

/** Everything the screens use, built once by the composition root (`src/main.ts`). */
export interface AppServices {
  router: Router;
  device: DeviceState;
  pwa: PwaState;
  models: ModelManagerView;
  /** Resolves once storage is open; rejects with an AppError when it cannot be (private mode…). */
  memory: Promise<MemoryServices>;
}
