// The assistant panel: runs the agent in a runner worker and shows what happens, as text.
import { IndexedDbConversationStore } from '../../src/store/indexeddb-conversation-store.js';
import {
  createWorkerRunner,
  openAICompatible,
  scriptedEngine,
  type Message,
  type Run,
  type RunEvent,
  type WorkerRunner,
} from '../../src/worker/index.js';
import { fillField, highlight, readPage } from '../tools/dom-tools.js';
import { addNoteTool, deleteNoteTool, searchNotesTool, updateNoteTool } from '../tools/note-tools.js';
import { offlineReply, WALKTHROUGH_PROMPT, walkthroughReplies } from '../walkthrough.js';
import { refreshLeaves } from './leaves-view.js';
import { appendItem, button, describeError } from './render.js';
import { downloadLocalModel } from '../../src/engines/local-download.js';
import { localModel } from '../../src/engines/local-model.js';
import { loadSettings, pickedModel, type Settings } from './settings.js';

export const DATABASE = 'ambi-demo';
const CONVERSATION_KEY = 'ambi-demo:conversation';
const PREAMBLE = `You are the assistant inside a notes app that runs in the person's browser.
Use the tools: read_page (the page, or a section: #notes, #editor, #data), search_notes / add_note / update_note / delete_note (the notes),
fill_field (the editor form), highlight (point at something), csv_stats (statistics of CSV text, e.g. the data panel), spawn_leaf (delegate a self-contained sub-task).
Keep answers short.`;

const chat = () => document.querySelector<HTMLOListElement>('#chat')!;
const timeline = () => document.querySelector<HTMLOListElement>('#timeline')!;

/** The conversation this tab continues (kept across reloads). */
function conversationId(): string {
  let id = localStorage.getItem(CONVERSATION_KEY);
  if (!id) {
    id = `conv-${crypto.randomUUID()}`;
    localStorage.setItem(CONVERSATION_KEY, id);
  }
  return id;
}

const modelStatus = () => document.querySelector<HTMLElement>('#model-status')!;

function showStatus(text: string | undefined): void {
  modelStatus().hidden = text === undefined;
  modelStatus().textContent = text ?? '';
}

/** The local model: a picked file as is; a URL downloaded here first, with progress (then cached for next time). */
async function localEngine(settings: Settings) {
  const file = pickedModel();
  if (file) return localModel({ source: file, maxTokens: 256 });
  if (!settings.modelURL) throw new Error('Choose a .gguf file or a model URL in Settings');
  await downloadLocalModel(settings.modelURL, {
    onProgress: (p) => {
      if (p.phase === 'download') showStatus(`Downloading the model: ${p.total ? `${Math.round((100 * p.loaded) / p.total)}%` : `${(p.loaded / 1e6).toFixed(1)} MB`}`);
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

async function runnerFor(settings: Settings, input: string): Promise<{ runner: WorkerRunner; fresh: boolean; keep: boolean }> {
  if (settings.mode === 'offline') return { runner: await makeRunner(settings, input), fresh: true, keep: false };
  const key = JSON.stringify(settings);
  const file = pickedModel();
  if (kept && kept.key === key && kept.file === file) return { runner: kept.runner, fresh: false, keep: true };
  dropRunner();
  const runner = await makeRunner(settings, input);
  kept = { key, file, runner };
  return { runner, fresh: true, keep: true };
}

function dropRunner(): void {
  kept?.runner.close();
  kept = undefined;
}

/** A runner: the engine from the settings, the page's tools, the demo's tool worker. */
async function makeRunner(settings: Settings, input: string): Promise<WorkerRunner> {
  const engine =
    settings.mode === 'openai'
      ? openAICompatible({ baseURL: settings.baseURL, model: settings.model, nativeTools: settings.nativeTools, ...(settings.apiKey ? { apiKey: settings.apiKey } : {}) })
      : settings.mode === 'local'
        ? await localEngine(settings)
        : scriptedEngine(input === WALKTHROUGH_PROMPT ? walkthroughReplies() : offlineReply());
  // 'no-eval': the demo also runs under a strict CSP (no 'unsafe-eval'), like a browser extension.
  const runner = createWorkerRunner({ engine, database: DATABASE, leaf: { maxDepth: 1 }, preamble: PREAMBLE, validation: 'no-eval' })
    .tool(readPage).tool(fillField).tool(highlight)
    .tool(searchNotesTool).tool(addNoteTool).tool(updateNoteTool).tool(deleteNoteTool);
  try {
    await runner.workerTools(() => new Worker(new URL('../tools.worker.ts', import.meta.url), { type: 'module' }));
  } catch (error) {
    runner.close();
    throw error;
  }
  return runner;
}

/** Show a stored conversation (after a reload). */
function renderHistory(messages: readonly Message[]): void {
  for (const message of messages) {
    if (message.role === 'user' && message.origin !== 'runtime') appendItem(chat(), 'user', message.content);
    if (message.role === 'assistant') {
      // Without native tools the stored reply keeps its tagged calls; they are listed below it instead.
      const text = message.content.replace(/\[TOOL_CALL\][\s\S]*?(\[\/TOOL_CALL\]|$)/g, '').trim();
      if (text) appendItem(chat(), 'assistant', text);
      for (const call of message.toolCalls ?? []) appendItem(chat(), 'tool', `→ ${call.name} ${JSON.stringify(call.arguments)}`);
    }
    if (message.role === 'tool') appendItem(chat(), 'tool', `← ${message.name}: ${message.content.slice(0, 160)}`);
  }
}

function timelineLine(event: RunEvent): string | undefined {
  const leaf = event.leafId ? `leaf ${event.leafId.slice(0, 6)}: ` : '';
  switch (event.type) {
    case 'run_started': return `${leaf}run started`;
    case 'tool_started': return `${leaf}${event.name} started${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}`;
    case 'tool_retry': return `${leaf}${event.name} timed out; retry in ${event.delayMs} ms`;
    case 'tool_finished': return `${leaf}${event.result.name} ${event.result.ok ? 'finished' : `failed: ${event.result.error.code}`}`;
    case 'approval_requested': return `${leaf}${event.call.name} waits for approval`;
    case 'approval_resolved': return `${leaf}${event.approved ? 'approved' : 'denied'}`;
    case 'format_error': return `${leaf}unreadable tool call fed back to the model`;
    case 'run_finished': return `${leaf}run finished`;
    case 'run_failed': return `${leaf}run failed: ${event.error.code}`;
    case 'warning': return `${leaf}warning (${event.code}): ${event.message}`;
    default: return undefined;
  }
}

/** Wire the assistant panel. */
export async function mountAssistant(): Promise<void> {
  const form = document.querySelector<HTMLFormElement>('#ask-form')!;
  const input = document.querySelector<HTMLInputElement>('#ask-input')!;
  const send = document.querySelector<HTMLButtonElement>('#send')!;
  const stop = document.querySelector<HTMLButtonElement>('#stop')!;
  const walkthrough = document.querySelector<HTMLButtonElement>('#walkthrough')!;
  let current: Run | undefined;

  const conversations = await IndexedDbConversationStore.open(DATABASE);
  renderHistory(await conversations.load(conversationId()));
  void refreshLeaves(DATABASE);

  const busy = (running: boolean) => {
    send.disabled = walkthrough.disabled = running;
    stop.disabled = !running;
    document.body.dataset.run = running ? 'running' : 'idle';
  };

  const ask = async (text: string) => {
    appendItem(chat(), 'user', text);
    timeline().replaceChildren();
    busy(true);
    let runner: WorkerRunner | undefined;
    let keep = false;
    try {
      const settings = loadSettings();
      const made = await runnerFor(settings, text);
      ({ runner, keep } = made);
      const run = runner.run(text, { conversation: conversationId(), lock: 'fail' });
      current = run;
      let bubble: HTMLLIElement | undefined;
      for await (const event of run.events) {
        // A local model loads in the worker on the first request: say so until it speaks.
        if (settings.mode === 'local' && made.fresh) {
          if (event.type === 'run_started' && !event.leafId) showStatus('Loading the model in the worker…');
          if (event.type === 'text_delta' || event.type === 'tool_call' || event.type === 'run_failed') showStatus(undefined);
        }
        const line = timelineLine(event);
        if (line) appendItem(timeline(), event.type === 'run_failed' ? 'error' : '', line);
        if (event.leafId) {
          if (event.type === 'run_started' || event.type === 'run_finished' || event.type === 'run_failed') void refreshLeaves(DATABASE);
          continue;
        }
        if (event.type === 'text_delta') {
          bubble ??= appendItem(chat(), 'assistant', '');
          bubble.textContent += event.text;
        } else if (event.type === 'tool_call') {
          bubble = undefined;
          appendItem(chat(), 'tool', `→ ${event.call.name} ${JSON.stringify(event.call.arguments)}`);
        } else if (event.type === 'approval_requested') {
          askApproval(run, event.call.id, `Allow ${event.call.name} ${JSON.stringify(event.call.arguments)}?`);
        } else if (event.type === 'run_failed') {
          appendItem(chat(), 'error', describeError(event.error));
          // A runner whose worker is gone cannot answer again: the next question makes a new one.
          if (event.error.code === 'worker_crashed' || event.error.code === 'closed') keep = false;
        }
      }
      await run.result.catch(() => undefined);
    } catch (error) {
      appendItem(chat(), 'error', describeError({ code: 'error', message: error instanceof Error ? error.message : String(error) }));
    } finally {
      showStatus(undefined);
      current = undefined;
      if (!keep) {
        if (runner === kept?.runner) kept = undefined;
        runner?.close();
      }
      busy(false);
      void refreshLeaves(DATABASE);
    }
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || current) return;
    input.value = '';
    void ask(text);
  });
  walkthrough.addEventListener('click', () => void ask(WALKTHROUGH_PROMPT));
  stop.addEventListener('click', () => current?.abort('Stopped by the person'));
  document.querySelector('#new-conversation')!.addEventListener('click', () => {
    localStorage.removeItem(CONVERSATION_KEY);
    chat().replaceChildren();
    timeline().replaceChildren();
  });
  busy(false);
}

/** An approval card in the chat: the call waits until the person answers. */
function askApproval(run: Run, callId: string, question: string): void {
  const card = appendItem(chat(), 'approval', question);
  card.dataset.callId = callId;
  const answer = (approved: boolean) => {
    if (approved) run.approve(callId);
    else run.deny(callId, 'The person declined');
    card.textContent = `${question} ${approved ? 'Approved.' : 'Denied.'}`;
  };
  const row = document.createElement('div');
  row.className = 'row';
  row.append(button('Approve', 'approve', () => answer(true)), button('Deny', 'ghost deny', () => answer(false)));
  card.append(row);
}
