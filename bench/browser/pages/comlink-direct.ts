// A plain Comlink call on the worker's own channel, the one our session link uses: the worker
// wraps `self`, the page exposes `ping` on the Worker object. No MessagePort in between.
// Served by comlink-direct.worker.ts, and by traced-comlink-direct.worker.ts with a tracer around it.
import * as Comlink from 'comlink';

interface PageApi {
  ping(args: unknown): Promise<string>;
  finish(): Promise<void>;
}

export function serveComlinkDirect(): void {
  const page = Comlink.wrap<PageApi>(self as unknown as Comlink.Endpoint);
  // Comlink's wrap listener ignores this message (it has no id); Comlink answers come here too and are ignored.
  self.addEventListener('message', async (event: MessageEvent<{ type?: string; n?: number }>) => {
    if (event.data?.type !== 'start') return;
    for (let i = 0; i < event.data.n!; i++) await page.ping({});
    await page.finish();
  });
}
