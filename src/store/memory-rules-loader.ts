/** The checks the memory stores make (memory-store-rules.ts), loaded on their first use. */
export type MemoryStoreRules = typeof import('./memory-store-rules.js');

let rules: MemoryStoreRules | undefined;
let loading: Promise<MemoryStoreRules> | undefined;

/**
 * The rules once they are loaded, else undefined: a store method takes them from here first, so
 * once loaded it runs at once, as before (`loadedRules() ?? (await loadRules())`).
 */
export function loadedRules(): MemoryStoreRules | undefined {
  return rules;
}

/** Load the rules (once per realm); every caller waits on the same load, in call order. */
export function loadRules(): Promise<MemoryStoreRules> {
  loading ??= import('./memory-store-rules.js').then((loaded) => (rules = loaded));
  return loading;
}

/** The load in progress, if the rules are loading now: a synchronous method that must come after the calls waiting on it waits too. */
export function rulesLoading(): Promise<MemoryStoreRules> | undefined {
  return rules ? undefined : loading;
}
