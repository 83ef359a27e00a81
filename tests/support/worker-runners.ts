// The WorkerRunner setup the browser tests share: runners opened on scripted engines and closed after each test, and a scripted tool call.
import { afterEach } from 'vitest';
import { createWorkerRunner, type ScriptedReply, scriptedEngine, type WorkerRunner, type WorkerRunnerOptions } from '../../src/index.js';

/** A runner's options but its engine (always scripted here). */
export type ScriptedRunnerOptions = Omit<WorkerRunnerOptions, 'engine'>;

/** The worker runners a test file opened, to close together. */
export interface OpenRunners {
  /** Keep `runner` to be closed by `closeAll`; returns it. */
  keep(runner: WorkerRunner): WorkerRunner;
  /** A worker runner whose scripted engine answers `replies`, kept. */
  runnerWith(replies: ScriptedReply[], options?: ScriptedRunnerOptions): WorkerRunner;
  /** Close every runner kept so far. */
  closeAll(): void;
}

/** Runners for a file that closes them itself (first in an afterEach that cleans up more after them). */
export function openRunners(): OpenRunners {
  const open: WorkerRunner[] = [];
  const keep = (runner: WorkerRunner) => {
    open.push(runner);
    return runner;
  };
  return {
    keep,
    runnerWith: (replies, options = {}) => keep(createWorkerRunner({ engine: scriptedEngine(replies), ...options })),
    closeAll: () => open.splice(0).forEach((runner) => runner.close()),
  };
}

/** Runners closed after each test of the calling file. */
export function runnersClosedAfterEach(): OpenRunners {
  const runners = openRunners();
  afterEach(() => runners.closeAll());
  return runners;
}

/** A scripted reply that makes one call to `name`, with `id` when given. */
export const callOf = (name: string, args: unknown = {}, id?: string): ScriptedReply => ({ toolCalls: [{ ...(id ? { id } : {}), name, arguments: args }] });
