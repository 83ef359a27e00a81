import { newCallId } from '../util/ids.js';

/**
 * The ids of a run's calls, its leaves' included. A call keeps the id the model gave
 * unless another call of the run has it (a model may repeat one, a server may number
 * calls per reply, so a leaf's `call_0` meets its parent's): then it gets a fresh one.
 * Approvals, results and the journal are keyed by these ids, so none is ever shared.
 */
export class CallIds {
  readonly #taken = new Set<string>();

  /** The id a call that the model named `given` goes by in this run, from now on taken. */
  claim(given: unknown): string {
    let id = typeof given === 'string' && given !== '' ? given : newCallId();
    while (this.#taken.has(id)) id = newCallId();
    this.#taken.add(id);
    return id;
  }
}
