// Vitest globalSetup of the browser project: the reference MCP server, for tests/browser/mcp-*.test.ts.
import type { TestProject } from 'vitest/node';
import { startEverythingServer } from './mcp-everything.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Streamable HTTP endpoint of @modelcontextprotocol/server-everything, on 127.0.0.1. */
    mcpEverythingUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startEverythingServer();
  project.provide('mcpEverythingUrl', server.url);
  return () => server.stop();
}
