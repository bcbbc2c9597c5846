/**
 * Light, dark or the system's choice (U162). The choice is a setting of this browser (it is
 * about this screen, not about the user's memory), applied as `data-theme` on the root element;
 * with "system" it follows the system's setting live.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'theme';

export interface ThemeDeps {
  settings: { get<T>(key: string): T | undefined; set(key: string, value: unknown): void };
  /** Where `data-theme` goes (the root element). */
  root: { setAttribute(name: string, value: string): void };
  /** `matchMedia('(prefers-color-scheme: dark)')`, or null where there is none. */
  systemDark: {
    readonly matches: boolean;
    addEventListener(type: 'change', listener: () => void): void;
  } | null;
}

function isChoice(value: unknown): value is ThemeChoice {
  return value === 'system' || value === 'light' || value === 'dark';
}

export class ThemeState {
  choice = $state<ThemeChoice>('system');
  /** What is shown now. */
  shown = $state<'light' | 'dark'>('light');

  constructor(private readonly deps: ThemeDeps) {
    const saved = deps.settings.get<unknown>(KEY);
    this.choice = isChoice(saved) ? saved : 'system';
    deps.systemDark?.addEventListener('change', () => this.apply());
    this.apply();
  }

  choose(choice: ThemeChoice): void {
    this.choice = choice;
    this.deps.settings.set(KEY, choice);
    this.apply();
  }

  private apply(): void {
    this.shown =
      this.choice === 'system' ? (this.deps.systemDark?.matches ? 'dark' : 'light') : this.choice;
    this.deps.root.setAttribute('data-theme', this.shown);
  }
}
