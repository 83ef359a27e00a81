// The content script's side of tab tools: serve tools to the extension's pages, one request per port.
import { AmbiError } from '../errors/ambi-error.js';
import { errorMessage } from '../errors/error-message.js';
import { executeCall } from '../call/execute.js';
import { servedTool, serveRule } from '../call/serve.js';
import { ToolRegistry } from '../tools/registry.js';
import type { Tool } from '../tools/types.js';
import { sourceOf } from '../util/abort-source.js';
import { chromeRuntime, type ChromePort } from './chrome-api.js';
import { thisDocument } from './this-document.js';
import type { MediaPart } from '../core/parts.js';
import { toBase64 } from '../parts/base64.js';
import { readPart } from '../parts/read-part.js';
import { TAB_TOOLS_PORT, type TabDocument, type TabReply, type TabRequest, type TabToolDescriptor } from './protocol.js';

/** What `exposeTabTools` returns: the names served, and how to stop serving them. */
export interface ExposedTabTools {
  readonly tools: string[];
  /** Stop answering; calls running now are aborted. */
  close(): void;
}

/**
 * How much longer than the tool's `timeoutMs` a call may run here: the page's deadline, which
 * retries idempotent tools, ends it first and says so by closing the port; this one is for a page
 * that can no longer say anything.
 */
const TAB_DEADLINE_GRACE_MS = 1_000;

/** Where the exposer of this content script's realm is kept: a script injected twice replaces the first. */
const CURRENT = Symbol.for('ambi-web.tab-tools');

/**
 * In a content script: serve `tools` to the extension's pages (`runner.tabTools(tabId)`). Each
 * call is decoded and validated here (without eval: content scripts run under the extension's
 * CSP), then run under its tool's timeout with `ctx.signal` aborted when the page aborts, times
 * out or goes away. One attempt per request: the page's runner decides about retries.
 */
export function exposeTabTools(tools: readonly Tool[]): ExposedTabTools {
  const runtime = chromeRuntime();
  const registry = new ToolRegistry({ validation: 'no-eval' });
  const descriptors: TabToolDescriptor[] = [];
  for (const tool of tools) {
    // Registered as a copy that never retries nor outlives the page's deadline (see above).
    registry.register({ ...tool, maxRetries: 0, timeoutMs: tool.timeoutMs + TAB_DEADLINE_GRACE_MS });
    descriptors.push(describe(tool));
  }
  const realm = globalThis as { [CURRENT]?: ExposedTabTools };
  realm[CURRENT]?.close();
  const where = thisDocument(runtime);

  const running = new Set<AbortController>();
  const onConnect = (port: ChromePort) => {
    if (port.name !== TAB_TOOLS_PORT) return;
    const controller = new AbortController();
    running.add(controller);
    port.onDisconnect.addListener(() => {
      controller.abort(new DOMException('The extension page stopped waiting: it aborted the call, timed it out, or closed', 'AbortError'));
      running.delete(controller);
    });
    const onMessage = (message: unknown) => {
      port.onMessage.removeListener(onMessage); // one request per port
      void answer(registry, descriptors, where, message, controller.signal).then((reply) => {
        running.delete(controller);
        if (!controller.signal.aborted) send(port, reply);
      });
    };
    port.onMessage.addListener(onMessage);
  };
  runtime.onConnect.addListener(onConnect);

  const exposed: ExposedTabTools = {
    tools: descriptors.map((d) => d.name),
    close() {
      runtime.onConnect.removeListener(onConnect);
      for (const controller of running) controller.abort(new AmbiError('closed', 'The tab stopped serving its tools'));
      running.clear();
      if (realm[CURRENT] === exposed) delete realm[CURRENT];
    },
  };
  realm[CURRENT] = exposed;
  return exposed;
}

/** A tool's plain-data face, for the page that registers it. */
function describe(tool: Tool): TabToolDescriptor {
  const rule = tool.needsApproval;
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    timeoutMs: tool.timeoutMs,
    maxRetries: tool.maxRetries,
    retryDelayMs: tool.retryDelayMs,
    idempotent: tool.idempotent,
    ...(tool.readOnly !== undefined ? { readOnly: tool.readOnly } : {}),
    approval: typeof rule === 'function' ? 'ask' : rule ? 'always' : 'never',
  };
}

/** The reply to one request; never rejects (a failure is a `failed` reply). */
async function answer(
  registry: ToolRegistry,
  descriptors: TabToolDescriptor[],
  where: () => Promise<TabDocument>,
  message: unknown,
  signal: AbortSignal,
): Promise<TabReply> {
  const request = message as Partial<TabRequest> | null;
  if (typeof request !== 'object' || request === null) return failed('internal_error', 'Not a tab tools request');
  if (request.t === 'list') return { t: 'tools', tools: descriptors };
  if (request.t === 'where')
    return where().then(
      (value): TabReply => ({ t: 'done', value }),
      (error: unknown) => failed('tab_unavailable', `This tab could not tell which page it shows: ${errorMessage(error)}`),
    );
  if (request.t !== 'call' && request.t !== 'ask') return failed('internal_error', 'Not a tab tools request');
  const name = String(request.name);
  const entry = registry.entry(name);
  if (!entry) return failed('unknown_tool', `This tab has no tool "${name}" (it has ${registry.names().join(', ') || 'none'})`);
  try {
    // The tool's rule, on the arguments as this script checks them (stage 4's rule, served here).
    if (request.t === 'ask') return { t: 'done', value: await serveRule(servedTool(entry.tool, entry.validate), request.args, sourceOf(signal)) };
    const { callId, idempotencyKey, args } = request as Partial<Extract<TabRequest, { t: 'call' }>>;
    const call = { id: String(callId), name, arguments: args as never };
    // The pipeline outside a run: decode, validate, then the attempt under the tool's timeout.
    const result = await executeCall(registry, call, { signal, idempotencyKey: String(idempotencyKey) });
    if (!result.ok) return failed(result.error.code, result.error.message);
    return { t: 'done', value: result.output, ...(result.parts ? { parts: await Promise.all(result.parts.map(asDataUrl)) } : {}) };
  } catch (error) {
    return failed('crashed', `Tool "${name}" failed in the tab: ${errorMessage(error)}`);
  }
}

/** A part as Chrome's messages carry it: its bytes as a data: URL (the runner makes them a Blob again). */
async function asDataUrl(part: MediaPart): Promise<MediaPart> {
  const read = await readPart(part);
  if (read.kind === 'url') return part;
  const url = `data:${read.mediaType};base64,${toBase64(read.bytes)}`;
  return part.type === 'image' ? { type: 'image', image: url, mediaType: read.mediaType } : { ...part, data: url, mediaType: read.mediaType };
}

function failed(code: string, message: string): TabReply {
  return { t: 'failed', code, message };
}

/** Post the reply; one that cannot go (too large for Chrome's messaging, say) is replaced by a failure that says why. */
function send(port: ChromePort, reply: TabReply): void {
  try {
    port.postMessage(reply);
  } catch (error) {
    try {
      port.postMessage(failed('crashed', `The tab could not send its answer back: ${errorMessage(error)}`));
    } catch {
      // The page went away meanwhile: nobody waits for an answer.
    }
  }
}
