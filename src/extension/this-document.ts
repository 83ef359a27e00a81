// In a content script: which document it runs in. Chrome never tells a content script its own
// `documentId`; it tells the extension page a message comes from (`sender.documentId`). So the
// content script asks, and an extension page that uses tab tools answers (`answerWhichDocument`,
// registered by `runner.tabTools`) with what Chrome says of the sender.
import type { ChromeMessageSender, ChromeRuntimeApi } from './chrome-api.js';
import { WHICH_DOCUMENT, type TabDocument } from './protocol.js';

/** The longest address and title a call's target keeps: a page chooses both, and they travel with every event and record of the call. */
const MAX_URL = 2_000;
const MAX_TITLE = 200;

/** Where a page keeps that it answers already (a realm-wide mark, not a route: it decides no call). */
const ANSWERING = Symbol.for('ambi-web.answers-which-document');

/** Chrome's ids of a content script's document, as an extension page read them from its message. */
type SenderDocument = Pick<TabDocument, 'tabId' | 'frameId' | 'documentId' | 'origin'>;

/**
 * The document this content script runs in, asked once (a document never changes its id; a
 * navigation starts a new content script) and completed, at each ask, with the address and
 * title shown now.
 */
export function thisDocument(runtime: ChromeRuntimeApi): () => Promise<TabDocument> {
  let known: Promise<SenderDocument> | undefined;
  return async () => {
    known ??= ask(runtime).catch((error: unknown) => {
      known = undefined; // asked again next time: no page may have answered yet
      throw error;
    });
    return { ...(await known), url: location.href.slice(0, MAX_URL), title: document.title.slice(0, MAX_TITLE) };
  };
}

async function ask(runtime: ChromeRuntimeApi): Promise<SenderDocument> {
  if (typeof runtime.sendMessage !== 'function') throw new Error('chrome.runtime.sendMessage is not available');
  const answer = (await runtime.sendMessage({ t: WHICH_DOCUMENT })) as Partial<SenderDocument> | undefined;
  const { tabId, frameId, documentId, origin } = answer ?? {};
  if (typeof tabId !== 'number' || typeof frameId !== 'number' || typeof documentId !== 'string' || typeof origin !== 'string')
    throw new Error('no extension page said which document this is');
  return { tabId, frameId, documentId, origin };
}

/**
 * In an extension page: answer the content scripts of this extension that ask which document they
 * run in, from what Chrome says of the sender. Registered once per page; messages of others are
 * left to their listeners.
 */
export function answerWhichDocument(runtime: ChromeRuntimeApi): void {
  const page = globalThis as { [ANSWERING]?: true };
  if (page[ANSWERING] || !runtime.onMessage) return;
  page[ANSWERING] = true;
  runtime.onMessage.addListener((message: unknown, sender: ChromeMessageSender, sendResponse: (response: unknown) => void) => {
    if ((message as { t?: unknown } | null)?.t !== WHICH_DOCUMENT || sender.id !== runtime.id) return;
    const tabId = sender.tab?.id;
    const { frameId, documentId, origin } = sender;
    // Only a content script in a tab has all of these; an extension page asking gets no answer here.
    if (tabId === undefined || frameId === undefined || documentId === undefined || origin === undefined) return;
    sendResponse({ tabId, frameId, documentId, origin } satisfies SenderDocument);
  });
}
