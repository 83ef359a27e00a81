import { AmbiError } from '../../errors/ambi-error.js';
import { CASSETTE_KIND, type Cassette } from './cassette.js';

/** A plain-data engine that serves a cassette's responses again (see `replayEngine`). */
export interface ReplayEngineConfig {
  kind: 'replay';
  cassette: Cassette;
}

/**
 * Describe an engine that answers with a recorded cassette's responses, in order, across all
 * runs and leaves of the agent or WorkerRunner built from it, checking that each request is the
 * one recorded (messages, tool definitions, tool choice, answer format). A request that differs
 * rejects the run with `replay_mismatch`, naming the first difference (a JSON Pointer and both
 * values); so does a request past the last one recorded. A cassette that is not one `cassette()`
 * writes rejects the run with `invalid_cassette`.
 *
 * @example
 * ```ts
 * import { Agent, ChatRunner, replayEngine, scriptedEngine } from 'ambi-web';
 *
 * const recording = await Agent.make(scriptedEngine(['Hello!']), { record: true });
 * await new ChatRunner().run(recording, 'Hi').result;
 * const cassette = recording.cassette(); // JSON: write it to a file next to the test
 *
 * const replaying = await Agent.make(replayEngine(cassette));
 * console.log((await new ChatRunner().run(replaying, 'Hi').result).text); // 'Hello!'
 * ```
 */
export function replayEngine(cassette: Cassette): ReplayEngineConfig {
  // The whole check runs where the cassette is replayed; this one catches what is not a cassette at all.
  const given = cassette as Partial<Cassette> | null;
  if (typeof given !== 'object' || given === null || given.kind !== CASSETTE_KIND || !Array.isArray(given.interactions)) {
    throw new AmbiError(
      'invalid_cassette',
      `replayEngine needs a cassette (an object with kind "${CASSETTE_KIND}" and interactions), as cassette() returns it`,
    );
  }
  return { kind: 'replay', cassette };
}
