// What an app's first answer loads up front, read from a real build's module graph: the modules
// the runner worker's entry and the page's entry load before any `import()` (the chunks they
// import statically). A feature the first answer does not use (a conversation store's contents,
// IndexedDB, MCP, leaves, Code Mode, hold mode, a local model, a shared runner, a request's or a
// page tool's parts, resume, typed output, traces) must stay behind `import()`: the bundle-size
// benchmark's figures grew by 21 KB gzip once when such modules were reached statically
// (bench/README.md, bundle-*). Names, not sizes: no threshold that moves with the machine or the minifier.
import { fileURLToPath } from 'node:url';
import { build, type Rolldown } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';
import { withoutCfworkerFormats } from '../../scripts/without-cfworker-formats.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The source modules (paths from the repository root) in `entry`'s chunk and the chunks it imports statically. */
function upFront(output: Rolldown.RolldownOutput): string[] {
  const chunks = output.output.filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('the build has no entry chunk');
  const seen = new Set<Rolldown.OutputChunk>();
  const visit = (chunk: Rolldown.OutputChunk) => {
    if (seen.has(chunk)) return;
    seen.add(chunk);
    for (const file of chunk.imports) {
      const imported = byFile.get(file);
      if (imported) visit(imported);
    }
  };
  visit(entry);
  return [...seen].flatMap((chunk) => chunk.moduleIds).map((id) => (id.startsWith(root) ? id.slice(root.length) : id));
}

/** Build `input` as an app's bundler does (ES modules, tree-shaken), in memory. */
async function bundle(input: string): Promise<string[]> {
  const output = await build({
    configFile: false,
    root,
    logLevel: 'silent',
    plugins: [withoutCfworkerFormats()],
    // The page's runner worker and the sandbox's are bundles of their own: what they load is not the page's.
    worker: { format: 'es', plugins: () => [withoutCfworkerFormats()] },
    build: { write: false, minify: false, target: 'es2022', modulePreload: false, rolldownOptions: { input } },
  });
  return upFront((Array.isArray(output) ? output[0] : output) as Rolldown.RolldownOutput);
}

/** Modules of `modules` that match any of `patterns`. */
const matching = (modules: string[], patterns: RegExp[]) => modules.filter((id) => patterns.some((pattern) => pattern.test(id)));

// What no first answer of a runner with a page tool, no conversation and no option needs.
const NOT_UP_FRONT_ANYWHERE = [
  /^src\/store\/(kept-|journal-|held-rules|conversation-rules|decision-rules|blob-parts|indexeddb-|transaction|database|schema|snapshot)/,
  /^src\/mcp\//,
  /^src\/leaf\/run-leaf/,
  /^src\/codemode\/(?!run-code-definition|code-mode-options)/,
  /^src\/extensions\/(code-mode\/(?!run-code\.ts)|untrusted\/|resume\/|output\/|traces\/|content\/|notices)/,
  /^src\/engines\/(local\/(?!local-model)|cassette\/(?!replay\.ts|cassette\.ts)|prompt-api\/(engine|direct)|openai\/content-parts)/,
  /^src\/parts\/read-part/,
  /^src\/worker\/shared-runner\/(?!run-view|protocol)/,
  /^src\/worker\/tool-host\/tool-worker/,
  /^src\/extension\//,
  /ajv/,
  /@modelcontextprotocol|@wllama|quickjs/,
];

describe('what a first answer loads up front (a real build of its module graph)', () => {
  let worker: string[];
  let page: string[];
  beforeAll(async () => {
    worker = await bundle('workers/runner.worker.ts');
    page = await bundle('bench/bundle/ours/index.html');
  }, 120_000);

  it('the runner worker loads the loop, the engine and the validator up front, and no feature a run has not asked for', () => {
    // Checked to be the runner: without these the test would pass for an empty build.
    for (const needed of [
      /^src\/runner\/run-loop\.ts$/,
      /^src\/parser\/tag-parser\.ts$/,
      /^src\/engines\/openai\/engine\.ts$/,
      /^src\/store\/memory-conversation-store\.ts$/,
    ])
      expect(
        worker.some((id) => needed.test(id)),
        String(needed),
      ).toBe(true);
    expect(matching(worker, NOT_UP_FRONT_ANYWHERE)).toEqual([]);
  });

  it('the page of a dedicated runner loads neither the runner nor a shared runner, parts checks, JSON conversion or MCP up front', () => {
    for (const needed of [/^src\/worker\/page\/worker-runner\.ts$/, /comlink/])
      expect(
        page.some((id) => needed.test(id)),
        String(needed),
      ).toBe(true);
    const notOnThePage = [
      ...NOT_UP_FRONT_ANYWHERE,
      /^src\/(runner\/(run-loop|chat-runner|model-turn)|parser\/|agent\/|call\/(execute|attempt|tool-manager)|validation\/no-eval|engines\/openai\/engine)/,
      /^src\/store\//,
      /^src\/tools\/json-output/,
      /^src\/parts\/normalize/,
      /^src\/worker\/page\/(worker-mcp|follow-runner)/,
      /^src\/worker\/runner\//,
      /eventsource-parser|@cfworker/,
    ];
    expect(matching(page, notOnThePage)).toEqual([]);
  });
});
