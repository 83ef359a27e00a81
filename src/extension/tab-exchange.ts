// One request to a tab's content script on a port of its own: the answer, or why there is none.
import { AmbiError } from '../errors/ambi-error.js';
import type { AmbiErrorCode } from '../core/codes.js';
import { ToolError } from '../errors/tool-error.js';
import { onAbort } from '../util/abort-source.js';
import { errorMessage } from '../errors/error-message.js';
import { chromeTabs, lastErrorMessage, type ChromePort } from './chrome-api.js';
import { TAB_TOOLS_PORT, type TabDocument, type TabReply, type TabRequest } from './protocol.js';
import { redactURL } from '../engines/url-redact.js';

/** Where a request goes: a tab, and a frame in it (0: the top frame). */
export interface TabTarget {
  tabId: number;
  frameId: number;
}

/** The failure codes a tab may report, kept as they are; any other code from a tab becomes `crashed`. */
const TAB_CODES = new Set<string>(['tool_error', 'invalid_arguments', 'invalid_tool', 'unknown_tool', 'timeout', 'aborted', 'crashed', 'tab_unavailable']);

/**
 * Send `request` to the content script of `target` and resolve with its answer. Rejects with
 * `tab_gone` if the port closes first (the tab closed or navigated away, the frame went, or no
 * content script of this extension listens there), with the signal's reason if `signal` aborts
 * first (the port is then closed, which aborts the work in the tab), and with the tab's own
 * failure (a ToolError for `tool_error`, an AmbiError with its code otherwise). With `bound`, the
 * request goes to that document only: Chrome refuses the port if the frame shows another one now,
 * so the request never reaches a page it was not meant for (`tab_gone`, naming the page).
 */
export function exchange(
  target: TabTarget,
  request: TabRequest,
  signal?: AbortSignal,
  bound?: Pick<TabDocument, 'documentId' | 'url'>,
): Promise<TabReply & { t: 'done' | 'tools' }> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let port: ChromePort;
    let tabs: ReturnType<typeof chromeTabs>;
    try {
      tabs = chromeTabs();
    } catch (error) {
      return reject(error); // extension_unavailable
    }
    try {
      port = tabs.connect(target.tabId, { name: TAB_TOOLS_PORT, frameId: target.frameId, ...(bound ? { documentId: bound.documentId } : {}) });
    } catch (error) {
      // Chrome throws at once for an id that cannot be a tab; an id of no tab disconnects instead.
      return reject(gone(target, errorMessage(error), bound));
    }
    let settled = false;
    const settle = () => {
      settled = true;
      unhook();
      port.onDisconnect.removeListener(onDisconnect);
      port.onMessage.removeListener(onMessage);
    };
    const onDisconnect = () => {
      if (settled) return;
      settle();
      reject(gone(target, lastErrorMessage(), bound));
    };
    const onMessage = (message: unknown) => {
      if (settled) return;
      settle();
      port.disconnect();
      const reply = message as Partial<TabReply> | null;
      if (reply?.t === 'done' || reply?.t === 'tools') resolve(reply as TabReply & { t: 'done' | 'tools' });
      else if (reply?.t === 'failed') reject(tabFailure(reply.code, reply.message));
      else reject(new AmbiError('crashed', `The content script of tab ${target.tabId} answered something that is not a tab tools reply`));
    };
    const unhook = signal
      ? onAbort(signal, () => {
          if (settled) return;
          settle();
          port.disconnect(); // the tab's ctx.signal aborts
          reject(signal.reason);
        })
      : () => {};
    port.onDisconnect.addListener(onDisconnect);
    port.onMessage.addListener(onMessage);
    try {
      port.postMessage(request);
    } catch (error) {
      settle();
      port.disconnect();
      // Chrome refuses a message over its size limit (64 MiB of JSON) as it is posted.
      reject(new AmbiError('invalid_arguments', `The request could not be sent to tab ${target.tabId}: ${errorMessage(error)}`));
    }
  });
}

/** `tab_gone`, with what Chrome said about it; for a request bound to a document, naming the page it was meant for. */
export function gone(target: TabTarget, detail: string | undefined, bound?: Pick<TabDocument, 'url'>): AmbiError {
  const frame = target.frameId === 0 ? '' : ` (frame ${target.frameId})`;
  const why = detail ? ` (${detail})` : '';
  if (bound) {
    return new AmbiError(
      'tab_gone',
      `Tab ${target.tabId}${frame} no longer shows the page this call was proposed for (${redactURL(bound.url)}): it navigated away or closed, or the frame went${why}. The call does not run anywhere else; whatever it did there before is not known.`,
    );
  }
  return new AmbiError(
    'tab_gone',
    `Tab ${target.tabId}${frame} is gone: it was closed or navigated away, or no content script serves tools there${why}. Whatever the call did before is not known.`,
  );
}

/** A failure the tab reported, as the error the page's tool throws. */
function tabFailure(code: unknown, message: unknown): Error {
  const text = typeof message === 'string' ? message : 'The tab reported a failure without a message';
  if (code === 'tool_error') return new ToolError(text);
  return new AmbiError((typeof code === 'string' && TAB_CODES.has(code) ? code : 'crashed') as AmbiErrorCode, text);
}
