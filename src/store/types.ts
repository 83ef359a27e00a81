import type { CallHandle, CallTarget, JournalState, Message } from '../core/types.js';
import type { RecordedDecision, StandingDecision } from './approval-types.js';

export type { JournalState } from '../core/types.js';
import type { ToolResult } from '../core/types.js';

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

/**
 * The record of one call, keyed by its idempotency key: asked (a person was asked about it),
 * decided, started (written before it runs), done (its result). What a run on a stored
 * conversation reads of an interrupted one: one record per call, from one place.
 */
export interface JournalEntry {
  /** The call's idempotency key: the same for every attempt, and what the tool sends its server. */
  idempotencyKey: string;
  callId: string;
  name: string;
  /** The call's arguments as proposed (a person's edit is `decision.arguments`). */
  arguments: unknown;
  /** The conversation the call belongs to, when it has one. */
  conversation?: string;
  /** The run that made the call, where it was asked about. */
  runId?: string;
  state: JournalState;
  /** When a person was first asked about the call, in epoch milliseconds (set from `asked` on). */
  requestedAt?: number;
  /** The identity of the tool the person was asked about (see `Tool.identity`). */
  tool?: string;
  /** Where the call was proposed to act (see `Tool.target`), as the person saw it. */
  target?: CallTarget;
  /** The person's decision (set from `decided` on). */
  decision?: RecordedDecision;
  /** What the call left running outside the run (an MCP server's task), noted while it ran. */
  handle?: CallHandle;
  /** The call's result once it has one. */
  result?: ToolResult;
  updatedAt: number;
}

/** What `ToolCallJournal.begin` records: the call, about to run. */
export type JournalBegin = Pick<JournalEntry, 'idempotencyKey' | 'callId' | 'name' | 'arguments' | 'conversation'>;

/** What `ToolCallJournal.ask` records: the call a person is asked about, in its conversation. */
export type JournalAsk = JournalBegin & Pick<JournalEntry, 'runId' | 'target'> & { conversation: string; requestedAt: number; tool?: string };

/**
 * Where calls are recorded, one record per call by idempotency key, so that a call cut off by a
 * reload is never run twice and a person is never asked twice for one decision: `begin` before a
 * journalled call runs (not idempotent, or approved by a person) and `finish` after; `ask` and
 * `decide` around a person's approval, and the standing decisions of a conversation. A journal
 * without the optional methods keeps no approvals (they are decided in memory only). Every write
 * lands or rejects with a coded StorageError (or JournalError).
 */
export interface ToolCallJournal {
  /** Record `started` before the call runs; rejects (coded) if it cannot be recorded, and then the call must not run. */
  begin(entry: JournalBegin): Promise<void>;
  /** Record the outcome. */
  finish(idempotencyKey: string, result: ToolResult): Promise<void>;
  get(idempotencyKey: string): Promise<JournalEntry | undefined>;
  /** Record that a person is asked about the call (before `approval_requested` goes out); the same call asked again keeps its record. */
  ask?(entry: JournalAsk): Promise<void>;
  /** Record the person's decision on an asked call, before it may run. */
  decide?(idempotencyKey: string, decision: RecordedDecision): Promise<void>;
  /** Note what a started call left running outside the run (an MCP task), to follow it after a reload. */
  note?(idempotencyKey: string, handle: CallHandle): Promise<void>;
  /** A conversation's records, oldest update first. */
  listByConversation?(conversation: string): Promise<JournalEntry[]>;
  /** Record a decision that stands for every later call of a tool in a conversation (`always: true`). */
  setStanding?(decision: StandingDecision): Promise<void>;
  standing?(conversation: string, tool: string): Promise<StandingDecision | undefined>;
}
