/**
 * A module the app loads on demand (a screen's component, ADR 0196): `load()` imports it once,
 * and `current` holds its default export from then on, so a screen opened a second time renders
 * at once, with no loading state. A failed import (offline before the file was ever cached, a
 * file an update removed) sets `error`; the next `load()` tries again.
 */
export class LazyModule<T> {
  current = $state.raw<T | null>(null);
  error = $state.raw<unknown>(null);
  #loading: Promise<T> | null = null;

  constructor(private readonly importer: () => Promise<{ default: T }>) {}

  /** Imports the module unless it is loaded or loading; resolves to its default export. */
  load(): Promise<T> {
    this.#loading ??= this.importer().then(
      (module) => {
        this.error = null;
        this.current = module.default;
        return module.default;
      },
      (error: unknown) => {
        this.#loading = null;
        this.error = error;
        throw error;
      },
    );
    return this.#loading;
  }
}
