// A reference point between raw postMessage and the runner: the same loop over a plain Comlink call.
import * as Comlink from 'comlink';

interface PageApi {
  ping(args: unknown): Promise<string>;
}

self.onmessage = async (event: MessageEvent<{ n: number; port: MessagePort }>) => {
  const page = Comlink.wrap<PageApi>(event.data.port);
  for (let i = 0; i < event.data.n; i++) await page.ping({});
  postMessage('done');
};
