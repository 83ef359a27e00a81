import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';

/** 64 KiB WebAssembly pages the QuickJS build starts with (its INITIAL_MEMORY, 16 MiB: stack and static data). */
const INITIAL_PAGES = 256;
const PAGE_BYTES = 65_536;
/** The most a wasm32 build addresses here (the build's own ceiling, 2 GiB). */
const MAX_PAGES = 32_768;

/** Where this realm gets the QuickJS wasm: a URL to fetch, or (none given) the package's own way. */
export interface QuickJSSource {
  wasmLocation?: string;
}

/**
 * A QuickJS instance of its own for one program, its WebAssembly memory capped at the start
 * size plus `memoryBytes`. The cap is what bounds a program's memory: QuickJS's own limit
 * (`setMemoryLimit`) refuses one allocation too large, but in this build it does not add up
 * the sizes of many small ones (no `malloc_usable_size`), so without the cap a loop of small
 * allocations grows the memory to 2 GiB. Past the cap, malloc fails and the program gets
 * QuickJS's catchable `InternalError: out of memory`.
 */
export function newQuickJSInstance(variant: QuickJSSyncVariant, memoryBytes: number, source: QuickJSSource = {}): Promise<QuickJSWASMModule> {
  const maximum = Math.min(MAX_PAGES, INITIAL_PAGES + Math.ceil(memoryBytes / PAGE_BYTES));
  const wasmMemory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum });
  return newQuickJSWASMModuleFromVariant(newVariant(variant, { ...source, wasmMemory }));
}
