// `npm run mcp-demo-server`: the reference MCP server (@modelcontextprotocol/server-everything,
// Streamable HTTP, endpoint /mcp) on 127.0.0.1, for the demo's Settings → MCP servers.
// PORT picks the port (default 3001). The demo's e2e test starts it the same way on a free port.
import { Server } from 'node:net';

// server-everything listens on every interface: keep it to this machine.
const listen = Server.prototype.listen;
Server.prototype.listen = function (port, ...rest) {
  if (typeof port === 'number' || (typeof port === 'string' && /^\d+$/.test(port))) {
    const callback = rest.find((arg) => typeof arg === 'function');
    return listen.call(this, Number(port), '127.0.0.1', callback);
  }
  return listen.call(this, port, ...rest);
};

process.env.PORT ??= '3001';
process.argv[2] = 'streamableHttp';
console.error(`The demo's MCP server: http://127.0.0.1:${process.env.PORT}/mcp (add it in the demo's Settings → MCP servers)`);
await import(new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url).href);
