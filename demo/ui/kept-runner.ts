// Which runner a question runs on. One per settings is kept across questions: its worker, stores
// and tools stay up, and a local model stays loaded. Offline, a new one per question, as the
// script depends on the question.
import type { WorkerRunner } from 'ambi-web/worker';
import { makeRunner } from './make-runner.js';
import { mcpServerConfigs } from './mcp-settings.js';
import { pickedModel, type Settings } from './settings.js';

let kept: { key: string; file: File | undefined; runner: WorkerRunner } | undefined;

/**
 * The runner for a question: the one kept if the settings (and the picked model file) are the
 * same, else a new one. `fresh`: made for this question; `keep`: to keep after it.
 */
export async function runnerFor(settings: Settings, input: string, signal: AbortSignal): Promise<{ runner: WorkerRunner; fresh: boolean; keep: boolean }> {
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

/** Close a runner not to be kept (its worker is gone, or it was made for one question); the next question makes a new one. */
export function closeRunner(runner: WorkerRunner | undefined): void {
  if (runner === kept?.runner) kept = undefined;
  runner?.close();
}
