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
   * The screen of the address just before this one, when the user moved here within the app (a
   * citation in the chat opening a document: `chat`; the library opening it: `documents`); null
   * on a fresh load. A screen can then offer the way back, which the browser's Back takes.
   */
  previous = $state<Screen | null>(null);

  constructor(private readonly win: Window = window) {
    this.screen = parse(win.location.hash);
    win.addEventListener('hashchange', (event) => {
      // The old address's hash: everything from its first '#' (no URL object needed).
      const at = event.oldURL.indexOf('#');
      this.previous = parse(at < 0 ? '' : event.oldURL.slice(at));
      this.screen = parse(win.location.hash);
    });
  }

  go(screen: Screen): void {
    this.win.location.hash = `#/${screen}`;
  }
}
