import type { JournalState, Message } from '../core/types.js';

export type { JournalState } from '../core/types.js';
import type { ToolResult } from '../core/types.js';
import type { CallHandle } from '../core/types.js';

/** A leaf run's durable record: written before the leaf starts, updated when it ends. */
export interface LeafSnapshot {
  id: string;
  parentRunId: string;
  parentCallId: string;
  task: string;
  /** The leaf's transcript, starting from the parent's snapshot. */
  messages: Message[];
  /** The tool names the leaf may call. */
  tools: string[];
  status: 'running' | 'done' | 'failed';
  result?: string;
  error?: { code: string; message: string };
  createdAt: number;
  updatedAt: number;
}

/** Where leaf snapshots live. Every write either lands or rejects with a coded StorageError. */
export interface SnapshotStore {
  put(snapshot: LeafSnapshot): Promise<void>;
  get(id: string): Promise<LeafSnapshot | undefined>;
  /** Every snapshot, oldest first. */
  list(): Promise<LeafSnapshot[]>;
  delete(id: string): Promise<void>;
}

export interface JournalEntry {
  /** The call's idempotency key: the same for every attempt, and what the tool sends its server. */
  idempotencyKey: string;
  callId: string;
  name: string;
  arguments: unknown;
  /** The conversation the call belongs to, when it has one. */
  conversation?: string;
  state: JournalState;
  /** What the call left running outside the run (an MCP server's task or question), noted while it ran. */
  handle?: CallHandle;
  /** The call's result once it has one. */
  result?: ToolResult;
  updatedAt: number;
}

/** A write-ahead record of non-idempotent calls, so a call cut off by a reload is never run twice. */
export interface ToolCallJournal {
  /** Record `started` before the call runs; rejects (coded) if it cannot be recorded, and then the call must not run. */
  begin(entry: Omit<JournalEntry, 'state' | 'updatedAt' | 'result'>): Promise<void>;
  /** Record the outcome. */
  finish(idempotencyKey: string, result: ToolResult): Promise<void>;
  get(idempotencyKey: string): Promise<JournalEntry | undefined>;
  /** Note what a started call leaves running outside the run (the latest note stands), to follow it after a reload. */
  note?(idempotencyKey: string, handle: CallHandle): Promise<void>;
}
