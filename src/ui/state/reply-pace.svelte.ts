/**
 * "Fast replies" or "Thorough memory" (A44): a setting of this device, like its speed. Fast (the
 * default) caps a turn's automatic recall at what this device reads in half of the wait it aims
 * for, once a reply has shown how fast the model reads here; thorough recalls up to the agent's
 * own budget however long reading takes.
 */
export type ReplyPace = 'fast' | 'thorough';

const KEY = 'replyPace';

export interface ReplyPaceDeps {
  settings: { get<T>(key: string): T | undefined; set(key: string, value: unknown): void };
}

export class ReplyPaceState {
  choice = $state<ReplyPace>('fast');

  constructor(private readonly deps: ReplyPaceDeps) {
    const saved = deps.settings.get<unknown>(KEY);
    this.choice = saved === 'thorough' ? 'thorough' : 'fast';
  }

  get fast(): boolean {
    return this.choice === 'fast';
  }

  choose(choice: ReplyPace): void {
    this.choice = choice;
    this.deps.settings.set(KEY, choice);
  }
}
