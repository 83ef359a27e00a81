/** The checks the memory stores make (memory-store-rules.ts), loaded on their first use. */
export type MemoryStoreRules = typeof import('./memory-store-rules.js');

let rules: MemoryStoreRules | undefined;
let loading: Promise<MemoryStoreRules> | undefined;
/** Store calls waiting for the load: until the last of them resumed, a new call waits too (calls keep their order). */
let waiting = 0;

/**
 * The rules, once loaded and no earlier call still waits for them; else undefined. A store method
 * takes them with `loadedRules() ?? arrived(await loadRules())`: once loaded it runs at once, as before.
 */
export function loadedRules(): MemoryStoreRules | undefined {
  return waiting === 0 ? rules : undefined;
}

/** Load the rules (once per realm); every caller waits on the same load, and resumes in call order. */
export function loadRules(): Promise<MemoryStoreRules> {
  waiting++;
  loading ??= import('./memory-store-rules.js').then((loaded) => (rules = loaded));
  return loading;
}

/** A waiting call resumed with the rules (call it first thing after the await of `loadRules`). */
export function arrived(loaded: MemoryStoreRules): MemoryStoreRules {
  waiting--;
  return loaded;
}

/** Whether calls wait for the rules now: a synchronous method that must come after them waits too. */
export function rulesPending(): Promise<MemoryStoreRules> | undefined {
  return waiting > 0 ? loading : undefined;
}
