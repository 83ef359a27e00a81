import { AmbiError } from '../../errors/ambi-error.js';
import type { AmbiErrorCode } from '../../core/codes.js';
import { EngineHttpError } from '../../errors/engine-http-error.js';
import { ReplayMismatchError } from '../../errors/replay-mismatch-error.js';
import { throwIfAborted } from '../abort.js';
import type { Engine, EngineEvent, EngineRequest } from '../types.js';
import type { CassetteError, CassetteInteraction, CassetteRequest } from './cassette.js';
import { checkCassette } from './check-cassette.js';
import { firstDifference, shown } from './difference.js';
import { CallNames, requestRecord } from './normalise.js';
import { PartHashes } from './part-hashes.js';
import type { ReplayEngineConfig } from './replay.js';

/**
 * The Engine of `replayEngine(cassette)`: each request, across all runs and leaves made on it,
 * gets the next recorded response, once the request is found to be the recorded one. The first
 * mismatch is kept: every later request fails with it too, so a run that goes on after a failed
 * leaf still names the first difference, not a consequence of it.
 */
export function createReplayEngine(config: ReplayEngineConfig): Engine {
  checkCassette(config.cassette);
  const { interactions, engine } = config.cassette;
  const names = new CallNames();
  const hashes = new PartHashes();
  let next = 0;
  let mismatch: ReplayMismatchError | undefined;
  const take = (request: EngineRequest): CassetteInteraction => {
    const index = next++;
    if (mismatch) throw mismatch;
    const recorded = interactions[index];
    if (!recorded) {
      const summary = request.messages.at(-1);
      mismatch = new ReplayMismatchError(
        index + 1,
        '',
        '(none)',
        shown(summary),
        `Request ${index + 1} of the replay was not recorded: the cassette holds ${interactions.length} ${interactions.length === 1 ? 'request' : 'requests'}`,
      );
      throw mismatch;
    }
    const live = requestRecord(request, names, hashes);
    const difference = firstDifference(recorded.request, live);
    if (difference) throw (mismatch = mismatchAt(index + 1, difference.path, difference.recorded, difference.now, recorded.request));
    return recorded;
  };
  return {
    nativeTools: engine.nativeTools,
    // A replay takes every part a recording took: it only compares their hashes.
    accepts: { image: true, file: true },
    stream: (request) => serve(request, take, names, hashes),
  };
}

async function* serve(
  request: EngineRequest,
  take: (request: EngineRequest) => CassetteInteraction,
  names: CallNames,
  hashes: PartHashes,
): AsyncGenerator<EngineEvent> {
  throwIfAborted(request.signal);
  // The request's parts are compared by the hash of their bytes, as they were recorded.
  await hashes.hashAll(request.messages);
  const { response } = take(request);
  if ('error' in response) throw recordedError(response.error);
  for (const event of response.events) {
    throwIfAborted(request.signal);
    if (event.type === 'tool_call') names.keep(event.call.id);
    // A copy: what the runner does with an event never changes the cassette.
    yield structuredClone(event);
  }
}

/** The error a recorded failure stands for: an HTTP failure as an EngineHttpError, any other with its code. */
function recordedError(error: CassetteError): Error {
  if (error.status !== undefined) return new EngineHttpError(error.status, error.message, error.retryAfterMs);
  return new AmbiError(error.code as AmbiErrorCode, error.message);
}

/** The mismatch at `path`, said with what the path points at (which tool, which message). */
function mismatchAt(request: number, path: string, recorded: unknown, now: unknown, recordedRequest: CassetteRequest): ReplayMismatchError {
  const [, list, index] = path.split('/');
  const at = Number(index);
  let where = '';
  if (list === 'tools' && recordedRequest.tools[at]) where = ` (tool "${recordedRequest.tools[at].name}")`;
  else if (list === 'messages' && recordedRequest.messages[at]) where = ` (message ${at + 1}, ${recordedRequest.messages[at].role})`;
  const [before, after] = [shown(recorded), shown(now)];
  return new ReplayMismatchError(
    request,
    path,
    before,
    after,
    `Request ${request} of the replay is not the one recorded: at ${path}${where}, recorded ${before}, now ${after}`,
  );
}
