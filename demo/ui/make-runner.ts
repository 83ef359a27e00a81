// A runner for the demo: the engine the settings choose, the page's tools, the demo's tool worker
// and the MCP servers of the settings. Everything comes from the page-side entry `ambi-web/worker`,
// as in an app built on the package.
import { createWorkerRunner, downloadLocalModel, localModel, openAICompatible, promptApiEngine, scriptedEngine, type WorkerRunner } from 'ambi-web/worker';
import type { EngineConfig, ScriptedReply } from 'ambi-web/worker';
import { fillField, highlight, readPage } from '../tools/dom-tools.js';
import { addNoteTool, deleteNoteTool, searchNotesTool, shareNoteTool, updateNoteTool } from '../tools/note-tools.js';
import { screenshotNoteTool } from '../tools/screenshot-note.js';
import { offlineReply, WALKTHROUGH_PROMPT, walkthroughReplies } from '../walkthrough.js';
import { chat, showStatus } from './assistant-panel.js';
import { DATABASE } from './conversation.js';
import { hostedConfig, hostedRunnerWorker } from './engine-choices.js';
import { connectMcpServers } from './mcp-settings.js';
import { appendItem } from './render.js';
import { pickedModel, type Settings } from './settings.js';
import { pageTools } from './webmcp.js';

const PREAMBLE = `You are the assistant inside a notes app that runs in the person's browser.
Use the tools: read_page (the page, or a section: #notes, #editor, #data), search_notes / add_note / update_note / delete_note / share_note (the notes),
fill_field (the editor form), screenshot_note (the note in the editor, as an image), highlight (point at something), csv_stats (statistics of CSV text, e.g. the data panel), spawn_leaf (delegate a self-contained sub-task).
The person may attach an image to a message.
Keep answers short.`;

/** The local model: a picked file as is; a URL downloaded here first, with progress (then cached for next time); `signal` stops the download. */
async function localEngine(settings: Settings, signal: AbortSignal) {
  const file = pickedModel();
  if (file) return localModel({ source: file, maxTokens: 256 });
  if (!settings.modelURL) throw new Error('Choose a .gguf file or a model URL in Settings');
  await downloadLocalModel(settings.modelURL, {
    signal,
    onProgress: (p) => {
      if (p.phase === 'download')
        showStatus(`Downloading the model: ${p.total ? `${Math.round((100 * p.loaded) / p.total)}%` : `${(p.loaded / 1e6).toFixed(1)} MB`}`);
    },
  });
  return localModel({ source: settings.modelURL, maxTokens: 256 });
}

/** A runner: the engine from the settings, the page's tools, the demo's tool worker (`signal` stops a model download). */
export async function makeRunner(
  settings: Settings,
  input: string,
  signal: AbortSignal,
  given: { script?: ScriptedReply[]; engine?: EngineConfig } = {},
): Promise<WorkerRunner> {
  const { script } = given;
  const engine =
    given.engine ??
    (settings.mode === 'openai'
      ? openAICompatible({
          baseURL: settings.baseURL,
          model: settings.model,
          nativeTools: settings.nativeTools,
          ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        })
      : settings.mode === 'local'
        ? await localEngine(settings, signal)
        : settings.mode === 'hosted'
          ? hostedConfig(settings.provider, settings.providerModel, settings.providerKey, settings.providerBaseURL)
          : settings.mode === 'builtin'
            ? promptApiEngine({ languages: ['en'] })
            : scriptedEngine(script ?? (input === WALKTHROUGH_PROMPT ? walkthroughReplies() : offlineReply())));
  // 'no-eval': the demo also runs under a strict CSP (no 'unsafe-eval'), like a browser extension.
  // `record`: the timeline's export holds the run's model traffic, to replay in a test.
  // A hosted model is built in the demo's own runner worker (demo/runner.worker.ts), which knows its kinds.
  const worker = !given.engine && settings.mode === 'hosted' ? { worker: hostedRunnerWorker } : {};
  const runner = createWorkerRunner({
    engine,
    ...worker,
    database: DATABASE,
    leaf: { maxDepth: 1 },
    preamble: PREAMBLE,
    validation: 'no-eval',
    record: true,
    untrusted: settings.untrusted,
    codeMode: settings.codeMode,
  })
    .tool(readPage)
    .tool(fillField)
    .tool(highlight)
    .tool(searchNotesTool)
    .tool(addNoteTool)
    .tool(updateNoteTool)
    .tool(deleteNoteTool)
    .tool(shareNoteTool)
    .tool(screenshotNoteTool);
  for (const tool of pageTools) runner.tool(tool);
  try {
    await runner.workerTools(() => new Worker(new URL('../tools.worker.ts', import.meta.url), { type: 'module' }));
    await connectMcpServers(runner, signal, (text) => appendItem(chat(), 'error', text));
  } catch (error) {
    runner.close();
    throw error;
  }
  return runner;
}
