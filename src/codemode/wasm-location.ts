import wasmUrl from '@jitl/quickjs-wasmfile-release-sync/wasm?url';
import type { QuickJSSource } from './quickjs-instance.js';

/**
 * Where this realm gets QuickJS's wasm: in a browser, the URL the bundler gives the file (so
 * it is fetched as an asset of the app, whatever the bundler did to the package's own
 * `import.meta.url`); in Node, the package reads its file itself.
 */
export function wasmSource(): QuickJSSource {
  const isNode = typeof process === 'object' && typeof process?.versions?.node === 'string';
  return isNode ? {} : { wasmLocation: wasmUrl };
}
