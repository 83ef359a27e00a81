// The assistant panel: runs the agent in a runner worker and shows what happens, as text.
// Everything comes from the page-side entry `ambi-web/worker`, as in an app built on the package.
import {
  createWorkerRunner,
  downloadLocalModel,
  localModel,
  openAICompatible,
  promptApiEngine,
  scriptedEngine,
  type Run,
  type WorkerRunner,
} from 'ambi-web/worker';
import type { EngineConfig, ScriptedReply } from 'ambi-web/worker';
import { fillField, highlight, readPage } from '../tools/dom-tools.js';
import { pageTools } from './webmcp.js';
import { addNoteTool, deleteNoteTool, searchNotesTool, shareNoteTool, updateNoteTool } from '../tools/note-tools.js';
import { screenshotNoteTool } from '../tools/screenshot-note.js';
import { offlineReply, WALKTHROUGH_PROMPT, walkthroughReplies } from '../walkthrough.js';
import { ApprovalCards } from './approval-cards.js';
import { InputCards } from './input-cards.js';
import { showHistory } from './history.js';
import { refreshLeaves } from './leaves-view.js';
import { connectMcpServers, mcpServerConfigs } from './mcp-settings.js';
import { appendItem, asProblem, describeError, growLast } from './render.js';
import { showStats } from './stats-view.js';
import { RunTimeline } from './timeline.js';
import { keepTimelineAcrossReloads } from './timeline-keep.js';
import type { StampedEvent } from './timeline-layout.js';
import { loadSettings, pickedModel, type Settings } from './settings.js';
import { hostedConfig, hostedRunnerWorker } from './engine-choices.js';

export const DATABASE = 'ambi-demo';
const CONVERSATION_KEY = 'ambi-demo:conversation';
const PREAMBLE = `You are the assistant inside a notes app that runs in the person's browser.
Use the tools: read_page (the page, or a section: #notes, #editor, #data), search_notes / add_note / update_note / delete_note / share_note (the notes),
fill_field (the editor form), screenshot_note (the note in the editor, as an image), highlight (point at something), csv_stats (statistics of CSV text, e.g. the data panel), spawn_leaf (delegate a self-contained sub-task).
The person may attach an image to a message.
Keep answers short.`;

const chat = () => document.querySelector<HTMLOListElement>('#chat')!;
let drawn: RunTimeline | undefined;
/** The run timeline panel (made on first use). */
const timeline = () => (drawn ??= new RunTimeline(document.querySelector<HTMLElement>('#timeline')!));

/** Draw again the rows a page before this one showed of the run about to be resumed. */
export function restoreTimeline(events: readonly StampedEvent[]): void {
  timeline().restore(events);
}

/** The conversation this tab continues (kept across reloads). */
export function conversationId(): string {
  let id = localStorage.getItem(CONVERSATION_KEY);
  if (!id) {
    id = `conv-${crypto.randomUUID()}`;
    localStorage.setItem(CONVERSATION_KEY, id);
  }
  return id;
}

const modelStatus = () => document.querySelector<HTMLElement>('#model-status')!;

/** The run this tab follows, a question or a run resumed after a reload: Stop aborts it, and a question waits for it. */
export interface Following {
  kind: 'ask' | 'resume';
  stop: AbortController;
}
let following: Following | undefined;
/** The approval cards of the run followed now (one asks the person to answer before sending). */
let cardsShown: ApprovalCards | undefined;

/** Begin following a run: the page shows it running and Stop aborts `stop`. */
export function beginRun(kind: Following['kind']): Following {
  following = { kind, stop: new AbortController() };
  showRunning(true);
  return following;
}

/** The run followed ended. */
export function endRun(ended: Following): void {
  if (following !== ended) return;
  following = undefined;
  showRunning(false);
}

function showRunning(running: boolean): void {
  document.querySelector<HTMLButtonElement>('#walkthrough')!.disabled = running;
  document.querySelector<HTMLButtonElement>('#stop')!.disabled = !running;
  document.body.dataset.run = running ? 'running' : 'idle';
}

function showStatus(text: string | undefined): void {
  modelStatus().hidden = text === undefined;
  modelStatus().textContent = text ?? '';
}

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

/**
 * The runner for a question: one per settings, kept across questions (its worker, stores and
 * tools stay up, and a local model stays loaded); offline, a new one per question, as the
 * script depends on the question. `fresh`: made for this question.
 */
let kept: { key: string; file: File | undefined; runner: WorkerRunner } | undefined;

async function runnerFor(settings: Settings, input: string, signal: AbortSignal): Promise<{ runner: WorkerRunner; fresh: boolean; keep: boolean }> {
  if (settings.mode === 'offline') return { runner: await makeRunner(settings, input, signal), fresh: true, keep: false };
  // The MCP servers are part of the runner: a change of list makes a new one.
  const key = JSON.stringify([settings, mcpServerConfigs()]);
  const file = pickedModel();
  if (kept && kept.key === key && kept.file === file) return { runner: kept.runner, fresh: false, keep: true };
  dropRunner();
  const runner = await makeRunner(settings, input, signal);
  kept = { key, file, runner };
  return { runner, fresh: true, keep: true };
}

function dropRunner(): void {
  kept?.runner.close();
  kept = undefined;
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

/**
 * Follow a run in the chat and the timeline until it ends. Approval cards, a leaf's too (the
 * person answers for it through this run), are retired when their run ends. Returns false if
 * the runner cannot answer again (its worker is gone).
 */
export async function follow(run: Run, loadingModel: boolean): Promise<boolean> {
  const cards = new ApprovalCards(chat(), run);
  const questions = new InputCards(chat(), run);
  cardsShown = cards;
  let usable = true;
  let bubble: HTMLLIElement | undefined;
  try {
    for await (const event of run.events) {
      // A local model loads in the worker on the first request: say so until it speaks.
      if (loadingModel) {
        if (event.type === 'run_started' && !event.leafId) showStatus('Loading the model in the worker…');
        if (event.type === 'text_delta' || event.type === 'tool_call' || event.type === 'run_failed') showStatus(undefined);
      }
      // Chrome's built-in model downloading before its first answer.
      if (event.type === 'model_download') showStatus(`Downloading Chrome's built-in model: ${Math.round((100 * event.loaded) / (event.total || 1))}%`);
      if (event.type === 'text_delta' || event.type === 'tool_call') showStatus(undefined);
      timeline().push(event);
      if (event.type === 'tool_finished') showStats(event.result);
      if (event.type === 'approval_requested') cards.ask(event.call, event.leafId, event.untrusted);
      if (event.type === 'input_requested') questions.ask(event);
      if (event.leafId) {
        if (event.type === 'run_started' || event.type === 'run_finished' || event.type === 'run_failed') void refreshLeaves(DATABASE);
        if (event.type === 'run_finished' || event.type === 'run_failed') cards.retire(event.leafId);
        continue;
      }
      if (event.type === 'text_delta') {
        // The answer's last lines stay in view as it grows (unless the person scrolled up to read).
        const growing = bubble;
        if (growing) growLast(chat(), () => growing.append(event.text));
        else bubble = appendItem(chat(), 'assistant', event.text);
      } else if (event.type === 'tool_call') {
        bubble = undefined;
        appendItem(chat(), 'tool', `→ ${event.call.name} ${JSON.stringify(event.call.arguments)}`);
      } else if (event.type === 'run_failed') {
        appendItem(chat(), 'error', describeError(event.error));
        if (event.error.code === 'worker_crashed' || event.error.code === 'closed') usable = false;
      }
    }
    await run.result.catch(() => undefined);
  } finally {
    cards.retire();
    questions.retire();
    if (cardsShown === cards) cardsShown = undefined;
  }
  return usable;
}

/** Wire the assistant panel, then show the stored conversation. Never rejects: a store that fails at start-up is told in the chat. */
export async function mountAssistant(): Promise<void> {
  const form = document.querySelector<HTMLFormElement>('#ask-form')!;
  const input = document.querySelector<HTMLInputElement>('#ask-input')!;
  const stop = document.querySelector<HTMLButtonElement>('#stop')!;
  const walkthrough = document.querySelector<HTMLButtonElement>('#walkthrough')!;
  const attached = document.querySelector<HTMLInputElement>('#ask-image')!;
  /** The attach button says which image goes with the next message. */
  const showAttached = () => {
    const label = attached.closest('label')!;
    const file = attached.files?.[0];
    label.toggleAttribute('data-attached', file !== undefined);
    label.title = file ? `Attached: ${file.name} (sent with the next message)` : 'Attach an image to the message (for a model that sees images)';
  };

  // Stop aborts the run followed, from the model download to the run's last tool.
  const ask = async (text: string, image?: File) => {
    const asking = beginRun('ask');
    const stopping = asking.stop;
    appendItem(chat(), 'user', text);
    if (image) appendItem(chat(), 'notice', `with the image ${image.name}`);
    timeline().reset();
    let runner: WorkerRunner | undefined;
    let keep = false;
    try {
      const settings = loadSettings();
      const made = await runnerFor(settings, text, stopping.signal);
      ({ runner, keep } = made);
      // An attached image goes with the words (a Blob: it crosses to the runner worker without a copy).
      const input = image
        ? [
            { type: 'text' as const, text },
            { type: 'image' as const, image },
          ]
        : text;
      const run = runner.run(input, { conversation: conversationId(), lock: 'fail', signal: stopping.signal });
      // A runner whose worker is gone cannot answer again: the next question makes a new one.
      if (!(await follow(run, settings.mode === 'local' && made.fresh))) keep = false;
      // What the runner recorded so far, for the timeline's export (before an offline runner closes).
      else timeline().setCassette(await runner.cassette().catch(() => undefined));
    } catch (error) {
      appendItem(chat(), 'error', describeError(asProblem(error)));
    } finally {
      showStatus(undefined);
      if (!keep) {
        if (runner === kept?.runner) kept = undefined;
        runner?.close();
      }
      endRun(asking);
      void refreshLeaves(DATABASE);
    }
  };

  // Handlers first: whatever the stores do below, the panel answers the person.
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    // One run at a time in a conversation: say what to do, and keep the question in the box.
    if (following) {
      const wait = cardsShown?.waiting
        ? 'Answer the card above first (or Stop the run).'
        : following.kind === 'resume'
          ? 'The interrupted run above is still being resumed: wait for it, or Stop it.'
          : 'Wait for this answer, or Stop it.';
      appendItem(chat(), 'notice', wait);
      return;
    }
    input.value = '';
    const image = attached.files?.[0];
    attached.value = '';
    showAttached();
    void ask(text, image);
  });
  attached.addEventListener('change', showAttached);
  walkthrough.addEventListener('click', () => {
    if (!following) void ask(WALKTHROUGH_PROMPT);
  });
  stop.addEventListener('click', () => following?.stop.abort('Stopped by the person'));
  document.querySelector('#new-conversation')!.addEventListener('click', () => {
    localStorage.removeItem(CONVERSATION_KEY);
    chat().replaceChildren();
    timeline().reset();
  });
  showRunning(false);
  timeline();
  // A reload while a run goes on (a card waits): the next page resumes it, and draws these rows first.
  keepTimelineAcrossReloads(
    () => timeline().events,
    () => following !== undefined,
    conversationId,
  );

  await showHistory(chat(), DATABASE, conversationId());
  void refreshLeaves(DATABASE);
}
