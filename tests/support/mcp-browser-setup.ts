// Vitest globalSetup of the browser project: the reference MCP server, for tests/browser/mcp-*.test.ts,
// the providers' APIs replaying recorded streams (tests/browser/custom-runner.test.ts),
// servers that hold a client waiting (one that never answers, a proxy to the reference one that answers late),
// and the attack suite's model and MCP server of documents.
import type { TestProject } from 'vitest/node';
import { startDelayedProxy, startSilentServer } from './held-servers.js';
import { startEverythingServer } from './mcp-everything.js';
import { startDocumentServer } from './attack/document-server.js';
import { startModelServer } from './attack/model-server.js';
import { startTestServer, type TestTool } from './mcp-test-server.js';
import { startInputServer } from './mcp-input-server.js';
import { startProviderServer } from './provider-server.js';

/** A read-only tool that answers with the `_meta` of its call, as JSON text. */
const echoMeta: TestTool = {
  definition: { name: 'echo_meta', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  call: (_args, { meta }) => ({ content: [{ type: 'text', text: JSON.stringify(meta ?? null) }] }),
};

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
    /** A server of our own whose tool `echo_meta` answers with the `_meta` its call carried (trace context). */
    mcpMetaUrl: string;
    /** A 2026-07-28 server whose tools ask questions (`input_required`): mcp-input-server.ts. */
    mcpInputUrl: string;
    /** Anthropic's, Google's and OpenAI's APIs replaying their recorded streams (provider-server.ts). */
    providerServerOrigin: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startEverythingServer();
  const silent = await startSilentServer();
  const delayed = await startDelayedProxy(server.url, 150);
  const meta = await startTestServer([echoMeta], { cors: true });
  project.provide('mcpEverythingUrl', server.url);
  project.provide('mcpSilentUrl', silent.url);
  project.provide('mcpDelayedUrl', delayed.url);
  const model = await startModelServer();
  const documents = await startDocumentServer();
  project.provide('attackModelUrl', model.baseURL);
  project.provide('attackMcpUrl', documents.url);
  project.provide('mcpMetaUrl', meta.url);
  const input = await startInputServer();
  project.provide('mcpInputUrl', input.url);
  const providers = await startProviderServer();
  project.provide('providerServerOrigin', providers.origin);
  return async () => {
    await Promise.all([silent.stop(), delayed.stop(), model.close(), documents.close(), meta.close(), providers.close(), input.close()]);
    await server.stop();
  };
}
