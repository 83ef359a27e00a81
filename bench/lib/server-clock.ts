// The bench server's clock as a page reads it: GET /clock answers the server's timeOrigin + now,
// and the page pings it to learn how far that clock is from its own (the ping with the shortest
// round trip: the server read its clock within half of it). For a stamp taken in the server
// (a request arriving) compared with one taken in the page (a tool returning).
import type { ServerResponse } from 'node:http';

/** Whether `path` is the clock's endpoint. */
export const isClock = (method: string | undefined, path: string) => method === 'GET' && path === '/clock';

/** Answer GET /clock: this process's timeOrigin + now, in ms. */
export function answerClock(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(String(performance.timeOrigin + performance.now()));
}

/** The server's clock less the page's (ms), and the round trip of the ping it comes from: the offset is right within half of it. */
export interface ClockOffset {
  offset: number;
  roundTrip: number;
}

/** Ping the server's clock `pings` times from the page; the offset of the quickest ping. */
export async function serverClockOffset(url: string, pings = 20): Promise<ClockOffset> {
  const now = () => performance.timeOrigin + performance.now();
  let best: ClockOffset = { offset: Number.NaN, roundTrip: Number.POSITIVE_INFINITY };
  for (let i = 0; i < pings; i++) {
    const sent = now();
    const server = Number(await (await fetch(url, { cache: 'no-store' })).text());
    const back = now();
    if (back - sent < best.roundTrip) best = { offset: server - (sent + back) / 2, roundTrip: back - sent };
  }
  return best;
}
