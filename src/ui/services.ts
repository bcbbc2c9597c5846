import type { ModelServerState } from './state/model-server.svelte';
import type { BackupActions } from '../core/ports/backup';
import type { StorageStatusSource } from '../core/ports/storage-status';
import type { EmbedChoice } from './components/settings/embedding-setting';
import type { MemorySearch } from '../core/ports/memory-search';
import type { IdSource } from '../core/ports/clock';
import type { MemoryStore } from '../core/ports/memory-store';
import type { Tokenizer } from '../core/ports/tokenizer';
import type { TurnLock } from '../core/ports/turn-lock';
import type { WriterDeps } from '../core/writer/writer-deps';
import type { MemoryCheckDeps } from '../eval/run-memory-check';
import type { AgentsState } from './state/agents.svelte';
import type { ThemeState } from './state/theme.svelte';
import type { ReplyPaceState } from './state/reply-pace.svelte';
import type { BackupReminderState } from './state/backup-reminder.svelte';
import type { PersistenceState } from './state/persistence.svelte';
import type { BackgroundEmbedding } from './state/background-embedding.svelte';
import type { ChatSession } from './state/chat-session.svelte';
import type { ConversationsState } from './state/conversations.svelte';
import type { DeviceState } from './state/device.svelte';
import type { DocumentsState } from './state/documents.svelte';
import type { Highlights } from './state/highlights.svelte';
import type { ModelManagerView } from './state/model-manager.svelte';
import type { PwaState } from './state/pwa.svelte';
import type { Router } from './state/router.svelte';
import type { ShareInboxState } from './state/share-inbox.svelte';
import type { StoreUpgrade } from './state/store-upgrade.svelte';

/** What needs the memory store; absent when storage could not be opened. */
export interface MemoryServices {
  store: MemoryStore;
  search: MemorySearch;
  agents: AgentsState;
  session: ChatSession;
  /** The active agent's conversations: the list, the selected one (U187–U190). */
  conversations: ConversationsState;
  highlights: Highlights;
  /** What the writing screen's sessions run on (the same store, search, engine and lock). */
  writer: WriterDeps & { lock: TurnLock };
  /** Document imports, delete and re-embed (the Documents screen). */
  documents: DocumentsState;
  /** The "Shared with Loci" inbox: shares wait here until the user adds them (U200). */
  shares: ShareInboxState;
  /** What the Settings memory check runs on (V12–V13); absent where no check is offered. */
  memoryCheck?: MemoryCheckServices;
  /** Catches search by meaning up after an embedding-model switch (U80). */
  embedding?: BackgroundEmbedding;
  /**
   * Makes the embedding model saved in Settings (`''` for none) the one search and imports use,
   * without a restart (ADR 0177); absent where the choice is read at the next start.
   */
  chooseEmbedder?: (id: string) => Promise<void>;
  /** Backup export and import over this store (U74–U76); absent where the store cannot. */
  backup?: BackupActions;
}

/** The in-app memory check's inputs, built by the composition root from the app's own parts. */
export interface MemoryCheckServices {
  /**
   * Worlds of the check's own for one run (a store and a search with the user's embedder, and
   * copies of them): never the user's store (V14).
   */
  worlds: () => Promise<Pick<MemoryCheckDeps, 'createWorld' | 'forkWorld'>>;
  /** The tokenizer turns use: the loaded model's, or the estimator before one is loaded. */
  tokenizer: () => Promise<Tokenizer>;
  /** The embedding model's label, or null when none is chosen (vector search is unavailable). */
  readonly embedderName: string | null;
  ids: IdSource;
}

/** Everything the screens use, built once by the composition root (`src/main.ts`). */
export interface AppServices {
  router: Router;
  device: DeviceState;
  pwa: PwaState;
  models: ModelManagerView;
  /** "Use my own model server" on the Models screen (ADR 0121). */
  server?: ModelServerState;
  /** Persistent storage, asked for when it matters (P20). */
  persistence: PersistenceState;
  /** The backup reminder the user can schedule (P22). */
  reminder: BackupReminderState;
  /** Light, dark or the system's (U162). */
  theme: ThemeState;
  /** Fast replies or thorough memory on this device (A44). */
  pace: ReplyPaceState;
  /** Usage, quota and persistence of this origin's storage (S12). */
  storageStatus: StorageStatusSource;
  /** The embedding models Settings offers, and the one suggested for this browser (U80). */
  embedModels: { choices: readonly EmbedChoice[]; defaultId: string };
  /** The schema upgrade running while storage opens, shown full-screen (U215). */
  storeUpgrade: StoreUpgrade;
  /** Resolves once storage is open; rejects with an AppError when it cannot be (private mode…). */
  memory: Promise<MemoryServices>;
}
