/** The app's screens, addressed by the URL hash (`#/chat`) so the static build needs no server routes. */
export const SCREENS = ['home', 'chat', 'memory', 'documents', 'models', 'settings'] as const;
export type Screen = (typeof SCREENS)[number];

function parse(hash: string): Screen {
  const name = hash.replace(/^#\/?/, '').split(/[/?]/)[0] ?? '';
  return (SCREENS as readonly string[]).includes(name) ? (name as Screen) : 'home';
}

/** Current screen, kept in step with `location.hash`. */
export class Router {
  screen = $state<Screen>('home');
  /**
   * The screen the user came from, when they moved here within the app (a citation in the chat
   * opening Documents); null on a fresh load. A screen can then offer a way back to it.
   */
  previous = $state<Screen | null>(null);

  constructor(private readonly win: Window = window) {
    this.screen = parse(win.location.hash);
    win.addEventListener('hashchange', () => {
      const next = parse(win.location.hash);
      if (next !== this.screen) this.previous = this.screen;
      this.screen = next;
    });
  }

  go(screen: Screen): void {
    this.win.location.hash = `#/${screen}`;
  }
}
