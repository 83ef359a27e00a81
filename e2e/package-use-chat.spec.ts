// The useChat guide (docs/ui-adapters.md) as a new user follows it, on the packed tarball: its
// install line run as written (the tarball's path put in), its vite.config.js, its snippet
// type-checked with the flags of Vite's react-ts template, then the chat driven in Chromium: a
// card, Approve, the list cleared; and a reload while the card waits, as the guide tells.
import { expect, type Page, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { env, packedTarball, root, run } from './packed-tarball.js';
import { e2ePort } from './ports.js';

const port = e2ePort('PACKAGE_CHAT');
const origin = `http://127.0.0.1:${port}`;
const guide = readFileSync(join(root, 'docs/ui-adapters.md'), 'utf8');

/** The guide's fenced blocks in `language`, in order. */
function blocks(language: string): string[] {
  return [...guide.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map(([, body]) => body!);
}

/** The guide's install line (`npm i /path/to/ambi-web-….tgz …`), as arguments after `npm`. */
function installArguments(tarball: string): string[] {
  const line = blocks('sh')
    .flatMap((block) => block.split('\n'))
    .find((l) => /^npm i \/path\/to\/ambi-web-[\d.]+\.tgz /.test(l));
  if (!line) throw new Error('docs/ui-adapters.md has no `npm i /path/to/ambi-web-….tgz …` line');
  const [, ...args] = line.replace(/#.*$/, '').trim().split(/\s+/);
  return args.map((arg) => (arg.startsWith('/path/to/') ? tarball : arg));
}

// The page around the guide's snippet: an ordinary useChat component, in plain JS (no JSX plugin needed).
const MAIN_JS = `import { useChat } from '@ai-sdk/react';
import { createElement as h, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { chat } from './chat.ts';

function Part({ part, decide }) {
  if (part.type === 'text') return h('p', null, part.text);
  if (part.type !== 'dynamic-tool') return null;
  if (part.state === 'approval-requested')
    return h('button', { type: 'button', onClick: () => decide({ id: part.approval.id, approved: true }) }, 'Approve ' + part.toolName);
  return h('code', { 'data-state': part.state }, part.toolName + ': ' + part.state);
}

function App() {
  const { messages, sendMessage, addToolApprovalResponse, status } = useChat({ chat, resume: true });
  const [input, setInput] = useState('');
  const send = (event) => {
    event.preventDefault();
    void sendMessage({ text: input });
    setInput('');
  };
  return h('section', { 'data-status': status },
    h('ol', null, messages.map((m) => h('li', { key: m.id, className: m.role }, m.parts.map((part, i) => h(Part, { key: i, part, decide: addToolApprovalResponse }))))),
    h('form', { onSubmit: send }, h('input', { 'aria-label': 'Message', value: input, onChange: (e) => setInput(e.target.value) }), h('button', { type: 'submit' }, 'Send')));
}

createRoot(document.querySelector('#root')).render(h(App));
`;

const INDEX_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><title>Shopping list</title></head>
<body><ul id="list"><li>milk</li><li>eggs</li></ul><div id="root"></div><script type="module" src="/src/main.js"></script></body></html>
`;

// What Vite's react-ts template turns on (tsconfig.app.json), so the snippet compiles where a new user pastes it.
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    module: 'ESNext',
    moduleResolution: 'bundler',
    types: [],
    skipLibCheck: true,
    verbatimModuleSyntax: true,
    moduleDetection: 'force',
    noEmit: true,
    jsx: 'react-jsx',
    strict: true,
    noUnusedLocals: true,
    noUnusedParameters: true,
    erasableSyntaxOnly: true,
    noFallthroughCasesInSwitch: true,
    noUncheckedSideEffectImports: true,
  },
  include: ['src'],
};

let workDir = '';
let preview: ChildProcess | undefined;
const installed: Record<string, string> = {};
let workerKb = 0;
let classicWorkerKb = 0;

/** The size of the runner worker file a build wrote (kB), 0 if none. */
function runnerWorkerKb(dist: string): number {
  const assets = join(dist, 'assets');
  const worker = readdirSync(assets).find((name) => /^runner\.worker.*\.js$/.test(name));
  return worker ? statSync(join(assets, worker)).size / 1024 : 0;
}

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const tarball = await packedTarball();
  workDir = mkdtempSync(join(tmpdir(), 'ambi-web-use-chat-'));
  const app = join(workDir, 'app');
  mkdirSync(join(app, 'src'), { recursive: true });
  // A React app as it is before the guide: React, its types, Vite (the versions this repository uses).
  const { devDependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const manifest = {
    name: 'shopping-list',
    private: true,
    type: 'module',
    dependencies: { react: devDependencies.react, 'react-dom': devDependencies['react-dom'] },
    devDependencies: { vite: devDependencies.vite, '@types/react': devDependencies['@types/react'] },
  };
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(app, 'index.html'), INDEX_HTML);
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  writeFileSync(join(app, 'src', 'main.js'), MAIN_JS);
  // The guide's own files: vite.config.js and the chat.
  const viteConfig = blocks('js').find((block) => block.startsWith('// vite.config.js'));
  const snippet = blocks('ts').find((block) => block.includes("from '@ai-sdk/react'") && block.includes('new Chat('));
  if (!viteConfig || !snippet) throw new Error('docs/ui-adapters.md lost its vite.config.js block or its useChat snippet');
  writeFileSync(join(app, 'vite.config.js'), viteConfig);
  writeFileSync(join(app, 'src', 'chat.ts'), snippet);

  // The guide's install line, as written (npm takes the rest of the app's packages with it).
  await run('npm', [...installArguments(tarball), '--no-audit', '--no-fund', '--loglevel=error'], app);
  for (const name of ['ai', '@ai-sdk/react', 'ambi-web'])
    installed[name] = JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')).version;
  // The snippet type-checks against what was installed (a mismatched @ai-sdk/react fails here).
  await run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], app);
  await run(process.execPath, [join(app, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], app);
  workerKb = runnerWorkerKb(join(app, 'dist'));
  // The same app without the guide's `worker: { format: 'es' }`: what the guide warns of.
  writeFileSync(join(app, 'vite.classic.config.js'), 'export default {};\n');
  await run(
    process.execPath,
    [join(app, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'vite.classic.config.js', '--outDir', 'dist-classic', '--logLevel', 'error'],
    app,
  );
  classicWorkerKb = runnerWorkerKb(join(app, 'dist-classic'));

  preview = spawn(
    process.execPath,
    [join(app, 'node_modules', 'vite', 'bin', 'vite.js'), 'preview', '--host', '127.0.0.1', '--port', String(port), '--strictPort'],
    {
      cwd: app,
      env,
      stdio: 'ignore',
    },
  );
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(origin).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline || preview.exitCode !== null) throw new Error(`vite preview did not answer on ${origin}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});

test.afterAll(async () => {
  if (preview && preview.exitCode === null) {
    const exited = new Promise((resolve) => preview!.once('exit', resolve));
    preview.kill();
    await exited;
  }
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const list = (page: Page) => page.locator('#list li');

async function ask(page: Page, text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

test("the guide's install line gives ai 7, @ai-sdk/react 4 and the tarball; its snippet type-checks; worker.format es keeps the worker small", () => {
  expect(installed.ai).toMatch(/^7\./);
  expect(installed['@ai-sdk/react']).toMatch(/^4\./);
  expect(installed['ambi-web']).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
  expect(workerKb, 'the runner worker was built').toBeGreaterThan(0);
  // Without the guide's vite.config.js, the worker is one classic script holding everything a run might load.
  expect(classicWorkerKb, 'the worker without worker.format es').toBeGreaterThan(3 * workerKb);
  test
    .info()
    .annotations.push({ type: 'runner worker', description: `${workerKb.toFixed(0)} kB with worker.format es, ${classicWorkerKb.toFixed(0)} kB without` });
});

test("the guide's chat: a card, Approve, the list cleared, the answer", async ({ page }) => {
  await page.goto(origin);
  await expect(list(page)).toHaveCount(2);
  await ask(page, 'Empty my shopping list');
  await page.getByRole('button', { name: 'Approve clear_list' }).click();
  await expect(page.locator('li.assistant')).toContainText('The list is empty now.');
  await expect(list(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Approve clear_list' })).toHaveCount(0);
});

test('a reload while the card waits: the card comes back; approved, the list is cleared, then the scripted model asks again, as the guide says', async ({
  page,
}) => {
  await page.goto(origin);
  await ask(page, 'Empty my shopping list');
  await expect(page.getByRole('button', { name: 'Approve clear_list' })).toBeVisible();
  await page.reload();
  // resume: true asks again, in a new assistant message; nothing ran before the approval.
  const again = page.getByRole('button', { name: 'Approve clear_list' });
  await expect(again).toHaveCount(1);
  await expect(list(page)).toHaveCount(2);
  await again.click();
  await expect(list(page)).toHaveCount(0);
  // The second card: the new page's scriptedEngine plays its script from its first reply.
  await expect(page.getByRole('button', { name: 'Approve clear_list' })).toHaveCount(1);
  await page.getByRole('button', { name: 'Approve clear_list' }).click();
  await expect(page.locator('li.assistant').last()).toContainText('The list is empty now.');
});
