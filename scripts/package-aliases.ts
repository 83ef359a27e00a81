// The package's entries by name, as an app imports them, for the builds of this repository (the
// demo, the example extension, the tests); tsconfig.json `paths` says the same to the type checker.
import { fileURLToPath } from 'node:url';

const source = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

export const packageAliases = [
  { find: /^ambi-web$/, replacement: source('index.ts') },
  { find: /^ambi-web\/worker$/, replacement: source('worker/index.ts') },
  { find: /^ambi-web\/ai-sdk$/, replacement: source('ai-sdk/index.ts') },
  { find: /^ambi-web\/ag-ui$/, replacement: source('ag-ui/index.ts') },
  { find: /^ambi-web\/extension$/, replacement: source('extension/index.ts') },
  { find: /^ambi-web\/extend$/, replacement: source('extend/index.ts') },
];
