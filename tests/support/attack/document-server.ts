// The attack suite's MCP server: one tool, `read_doc`, that returns the suite's documents (injected
// ones included) as a third party's server would. No openWorldHint: MCP's default, an open world.
import { startTestServer, type TestServer, text } from '../mcp-test-server.js';
import { documentText } from './tasks.js';

/** Start it on 127.0.0.1, reachable from a browser page of another origin. */
export function startDocumentServer(): Promise<TestServer> {
  return startTestServer(
    [
      {
        definition: {
          name: 'read_doc',
          description: 'Read a document by its id',
          inputSchema: { type: 'object', properties: { doc: { type: 'string' } }, required: ['doc'] },
          annotations: { readOnlyHint: true },
        },
        call: (args) => text(documentText(String(args.doc))),
      },
    ],
    { cors: true },
  );
}
