// Servers a test file starts, each closed after the test that started it: one line per file in
// place of a list, an afterEach and a wrapper in each.
import { afterEach } from 'vitest';

/** `start`, wrapped so that every server it starts during a test is closed after that test. */
export function closedAfterEach<Args extends unknown[], Server extends { close(): Promise<unknown> }>(
  start: (...args: Args) => Promise<Server>,
): (...args: Args) => Promise<Server> {
  const open: Server[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async (...args) => {
    const server = await start(...args);
    open.push(server);
    return server;
  };
}
