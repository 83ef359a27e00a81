/**
 * What a run's extensions keep for the whole tree of runs it starts (the run and its leaves): one
 * value per name, made by the first run of the tree that asks for it. A leaf's extension finds its
 * parent's (say, the held values of a run in `untrusted: 'hold'` mode, whose ids its leaves share).
 * A value kept under the name of a `RunScope` service (`traceContext`) is what the tree's tools get
 * for it: how an extension serves the run's tools without the loop knowing of it.
 */
export interface RunTreeState {
  /** The value kept under `name`, made by `make` if no run of the tree made it yet. */
  of<T>(name: string, make: () => T): T;
}

/** A tree's state: made once per top-level run, shared with its leaves through what the run shares (RunShared). */
export class TreeState implements RunTreeState {
  readonly #kept = new Map<string, unknown>();

  of<T>(name: string, make: () => T): T {
    if (!this.#kept.has(name)) this.#kept.set(name, make());
    return this.#kept.get(name) as T;
  }

  /** The value kept under `name`, if a run of the tree made one. */
  get<T>(name: string): T | undefined {
    return this.#kept.get(name) as T | undefined;
  }
}
