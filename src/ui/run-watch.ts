import type { ToolCall } from '../core/types.js';
import type { RunEvent, UntrustedContext } from '../core/run.js';

/** A call that waits for a person's decision, as the UI adapters show it. */
export interface WaitingCall {
  call: ToolCall;
  /** Set when the call belongs to a leaf run. */
  leafId?: string;
  /** Set when the call is tainted: the untrusted content its turn held, and which arguments came from it (as `approval_requested` said). */
  untrusted?: UntrustedContext;
}

/**
 * Which calls of a run are going on and which wait for a person, read from its events. The UI
 * protocols both hand a pending approval back to the user by ending what they stream (the AI
 * SDK's response, an AG-UI run); that may happen only once nothing else is going on, or the
 * calls still running would report to nobody. `blocked()` says when.
 */
export class RunWatch {
  /** Calls announced or started, without a result, not waiting: by id, with their tool's name. */
  readonly #running = new Map<string, string>();
  readonly #waiting = new Map<string, WaitingCall>();

  see(event: RunEvent): void {
    switch (event.type) {
      case 'tool_call':
        this.#running.set(event.call.id, event.call.name);
        break;
      case 'tool_started':
        // A resumed run starts calls it never announced.
        if (!this.#waiting.has(event.callId)) this.#running.set(event.callId, event.name);
        break;
      case 'approval_requested':
        this.#running.delete(event.call.id);
        this.#waiting.set(event.call.id, {
          call: event.call,
          ...(event.leafId ? { leafId: event.leafId } : {}),
          ...(event.untrusted ? { untrusted: event.untrusted } : {}),
        });
        break;
      case 'approval_resolved':
        this.#settle(event.callId);
        break;
      case 'tool_finished':
        this.#running.delete(event.result.id);
        this.#waiting.delete(event.result.id);
        break;
    }
  }

  /** A decision was sent for `callId`: it counts as running from now on, before the run confirms it. */
  decided(callId: string): void {
    this.#settle(callId);
  }

  /** The calls that wait for a decision, in the order they asked. */
  get waiting(): WaitingCall[] {
    return [...this.#waiting.values()];
  }

  isWaiting(callId: string): boolean {
    return this.#waiting.has(callId);
  }

  /**
   * True when the run waits for a person and nothing else goes on: every running call is a
   * `spawn_leaf`, whose leaf may itself be waiting (its own progress reaches the next segment).
   */
  blocked(): boolean {
    if (this.#waiting.size === 0) return false;
    for (const name of this.#running.values()) if (name !== 'spawn_leaf') return false;
    return true;
  }

  #settle(callId: string): void {
    const waiting = this.#waiting.get(callId);
    if (!waiting) return;
    this.#waiting.delete(callId);
    this.#running.set(callId, waiting.call.name);
  }
}
