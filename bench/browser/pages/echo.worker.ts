// The raw baseline: the worker asks the page, the page answers, the worker asks again.
// Same direction and rhythm as a runner worker calling a main-thread tool at concurrency 1.
let remaining = 0;
let seq = 0;

const ask = () => postMessage({ type: 'call', id: seq++, name: 'ping', args: {} });

self.onmessage = (event: MessageEvent<{ type: 'start'; n: number } | { type: 'reply'; id: number }>) => {
  const message = event.data;
  if (message.type === 'start') {
    remaining = message.n;
    ask();
  } else if (--remaining > 0) ask();
  else postMessage({ type: 'done' });
};
