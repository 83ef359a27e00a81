// Vitest globalSetup of the browser project: the reference MCP server, for tests/browser/mcp-*.test.ts,
// servers that hold a client waiting (one that never answers, a proxy to the reference one that answers late),
// and the attack suite's model and MCP server of documents.
import type { TestProject } from 'vitest/node';
import { startDelayedProxy, startSilentServer } from './held-servers.js';
import { startEverythingServer } from './mcp-everything.js';
import { startDocumentServer } from './attack/document-server.js';
import { startModelServer } from './attack/model-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Streamable HTTP endpoint of @modelcontextprotocol/server-everything, on 127.0.0.1. */
    mcpEverythingUrl: string;
    /** An endpoint that accepts connections and never answers. */
    mcpSilentUrl: string;
    /** The reference server behind a proxy that passes each request on after 150 ms. */
    mcpDelayedUrl: string;
    /** The attack suite's obedient model (OpenAI-compatible), and its MCP server of documents. */
    attackModelUrl: string;
    attackMcpUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startEverythingServer();
  const silent = await startSilentServer();
  const delayed = await startDelayedProxy(server.url, 150);
  project.provide('mcpEverythingUrl', server.url);
  project.provide('mcpSilentUrl', silent.url);
  project.provide('mcpDelayedUrl', delayed.url);
  const model = await startModelServer();
  const documents = await startDocumentServer();
  project.provide('attackModelUrl', model.baseURL);
  project.provide('attackMcpUrl', documents.url);
  return async () => {
    await Promise.all([silent.stop(), delayed.stop(), model.close(), documents.close()]);
    await server.stop();
  };
}
