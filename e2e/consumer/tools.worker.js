// A dedicated tool worker: its tools run here, off the page, and can be killed on timeout.
import { defineTool, exposeTools } from 'ambi-web/worker';

const realm = defineTool({
  name: 'realm',
  description: 'Say which kind of global scope this tool runs in',
  parameters: { type: 'object', properties: {} },
  idempotent: true,
  call: () => ({
    document: typeof document,
    worker: typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope,
  }),
});

exposeTools([realm]);
