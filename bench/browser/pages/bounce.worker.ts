// Sends back whatever the page posts: what crossing a worker costs a value, both ways.
self.onmessage = (event: MessageEvent<unknown>) => postMessage(event.data);
