/**
 * This realm's fetch, looked up at each call: a browser's fetch called off `globalThis` throws
 * "Illegal invocation", and a fetch swapped in later (tests, polyfills) is still the one used.
 */
export const realmFetch: typeof fetch = (input, init) => globalThis.fetch(input, init);
