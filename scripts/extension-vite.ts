// How this repository builds an unpacked Manifest V3 extension with Vite, in two passes into one
// folder (scripts/build-extension.mjs runs both):
// - `pages`: the extension pages (`*.html` in the folder) and the service worker
//   (`background.ts`), as ES modules; workers they start are bundled as ES module workers; the
//   folder's `public/` (manifest.json) is copied as is.
// - `content`: the content script (`content.ts`) as one classic script (`content.js`): Chrome
//   loads declared content scripts as classic scripts, so nothing in it may be a chunk or `import()`.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { UserConfig } from 'vite';
import { packageAliases } from './package-aliases.js';
import { withoutCfworkerFormats } from './without-cfworker-formats.js';

export function extensionConfig(root: string, outDir: string, mode: string): UserConfig {
  const shared: UserConfig = {
    root,
    base: './',
    logLevel: 'warn',
    resolve: { alias: packageAliases },
    plugins: [withoutCfworkerFormats()],
  };
  if (mode === 'content') {
    return {
      ...shared,
      publicDir: false,
      build: {
        outDir,
        emptyOutDir: false,
        target: 'es2022',
        minify: true,
        lib: { entry: join(root, 'content.ts'), formats: ['iife'], name: 'ambiWebContentScript', fileName: () => 'content.js' },
      },
    };
  }
  const pages = readdirSync(root).filter((name) => name.endsWith('.html'));
  return {
    ...shared,
    worker: { format: 'es', plugins: () => [withoutCfworkerFormats()] },
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      // The bench reads the chunk graph from Vite's manifest (bench/lib/bundle-graph.mjs); an extension ships none.
      manifest: process.env.EXTENSION_VITE_MANIFEST === '1',
      rolldownOptions: {
        input: Object.fromEntries([...pages.map((page) => [page.replace(/\.html$/, ''), join(root, page)]), ['background', join(root, 'background.ts')]]),
        // The service worker keeps the name the manifest gives it.
        output: { entryFileNames: (chunk) => (chunk.name === 'background' ? 'background.js' : 'assets/[name]-[hash].js') },
      },
    },
  };
}
