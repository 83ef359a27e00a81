// WebMCP (`document.modelContext`, Chromium behind a flag): the note tools are offered to the
// browser's own agents (deleting asks the person here first), and tools other frames of the page
// declare are handed to the assistant. A badge in the header says whether WebMCP is on.
import { listWebMcpTools, offerWebMcpTools, type Tool, type WebMcpApprovalRequest, webMcpAvailable } from 'ambi-web/worker';
import { addNoteTool, deleteNoteTool, searchNotesTool, updateNoteTool } from '../tools/note-tools.js';
import { asProblem } from './render.js';

const OFFERED = [searchNotesTool, addNoteTool, updateNoteTool, deleteNoteTool];

/** Tools the page's frames declared through WebMCP, for the assistant's runner (empty without WebMCP). */
export let pageTools: Tool[] = [];

/** Offer the note tools to the browser and list the page's own WebMCP tools; never rejects. */
export async function mountWebMcp(): Promise<void> {
  const badge = document.querySelector<HTMLElement>('#webmcp-badge')!;
  if (!webMcpAvailable()) {
    badge.dataset.webmcp = 'off';
    badge.textContent = 'WebMCP off';
    badge.title = 'This browser has no document.modelContext (Chromium: --enable-features=WebMCPTesting)';
    return;
  }
  try {
    const { offered } = await offerWebMcpTools(OFFERED, { approve: askPerson });
    pageTools = await listWebMcpTools({ exclude: OFFERED.map((tool) => tool.name) });
    badge.dataset.webmcp = 'on';
    badge.dataset.offered = offered.join(' ');
    badge.dataset.found = pageTools.map((tool) => tool.name).join(' ');
    const found = pageTools.length === 0 ? 'no page tools found' : `${pageTools.length} page ${pageTools.length === 1 ? 'tool' : 'tools'} found`;
    badge.textContent = `WebMCP on: ${offered.length} note tools offered, ${found}`;
    // Names from other frames are text in an attribute, never markup.
    badge.title = `Offered to the browser's agents: ${offered.join(', ')}. Page tools handed to the assistant: ${pageTools.map((tool) => tool.name).join(', ') || 'none'}.`;
  } catch (error) {
    badge.dataset.webmcp = 'error';
    badge.textContent = `WebMCP: ${asProblem(error)}`;
  }
}

/** A browser agent asks for an approval-gated note tool: the person decides in a dialog (its text is text, never HTML). */
function askPerson({ name, arguments: args }: WebMcpApprovalRequest): Promise<boolean> {
  const dialog = document.querySelector<HTMLDialogElement>('#webmcp-approval')!;
  dialog.querySelector('p')!.textContent = `A browser agent asks to run ${name} with ${JSON.stringify(args)}. Allow it?`;
  dialog.returnValue = '';
  dialog.showModal();
  return new Promise((resolve) => dialog.addEventListener('close', () => resolve(dialog.returnValue === 'allow'), { once: true }));
}
