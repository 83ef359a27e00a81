// MCP image and audio content as parts (issue 47): the reference server's image tool
// (`get-tiny-image`, @modelcontextprotocol/server-everything) reaches the model as an image where the
// engine takes images; elsewhere it stays described. A server's image that is no image stays text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, ChatRunner, mcpServer } from '../../src/index.js';
import { toolOutput } from '../../src/mcp/tool-output.js';
import { OutputWithParts } from '../../src/parts/with-parts.js';
import { type EverythingServer, startEverythingServer } from '../support/mcp-everything.js';
import { bytesOf, PartsEngine, PNG_BASE64, partsOf } from '../support/parts.js';

let server: EverythingServer;
beforeAll(async () => {
  server = await startEverythingServer();
});
afterAll(() => server.stop());

async function callTinyImage(engine: PartsEngine) {
  const agent = await Agent.make(engine);
  const connection = await agent.mcp(mcpServer({ url: server.url, tools: ['get-tiny-image'] }));
  try {
    return await new ChatRunner().run(agent, 'Show me the logo').result;
  } finally {
    await connection.close();
  }
}

describe('the reference server image tool', () => {
  it('its image block is an image part the model sees, the text still naming it', async () => {
    const engine = new PartsEngine([{ calls: [{ id: 'm1', name: 'get-tiny-image' }] }, 'The MCP logo.']);
    const result = await callTinyImage(engine);
    const tool = engine.requests[1]!.messages.at(-1)!;
    expect(tool.content).toMatch(/Here's the image you requested:\\n\[image image\/png, \d+ bytes\]\\nThe image above is the MCP logo\./);
    const [image] = partsOf(tool) as Array<{ image: Blob; mediaType: string }>;
    expect(image!.mediaType).toBe('image/png');
    const bytes = await bytesOf(image!.image);
    expect(Array.from(bytes.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(result.toolResults[0]).toMatchObject({ ok: true, parts: [{ type: 'image', mediaType: 'image/png' }] });
  });

  it('on an engine that takes no images, the model reads the description only', async () => {
    const engine = new PartsEngine([{ calls: [{ id: 'm1', name: 'get-tiny-image' }] }, 'A logo, I am told.'], {});
    await callTinyImage(engine);
    const tool = engine.requests[1]!.messages.at(-1)!;
    expect(partsOf(tool)).toEqual([]);
    expect(tool.content).toMatch(/not shown, this model takes no images/);
  });
});

describe('MCP content blocks as parts', () => {
  it('an audio block is an audio file part; an image whose data is no image stays described, saying why', () => {
    const output = toolOutput(
      'media',
      {
        content: [
          { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
          { type: 'audio', data: btoa('RIFF\u0000\u0000\u0000\u0000WAVEfmt '), mimeType: 'audio/wav' },
          { type: 'image', data: btoa('<html>not an image</html>'), mimeType: 'image/png' },
          { type: 'image', data: '!!not base64!!', mimeType: 'image/png' },
        ],
      },
      undefined,
    );
    expect(OutputWithParts.is(output)).toBe(true);
    const { output: text, parts } = output as OutputWithParts<string>;
    expect(parts.map((part) => [part.type, part.mediaType])).toEqual([
      ['image', 'image/png'],
      ['file', 'audio/wav'],
    ]);
    expect(text.split('\n').slice(-2)).toEqual([
      expect.stringMatching(/^\[the image above is not shown: .*no PNG, JPEG, GIF, WebP, HEIC or AVIF image/),
      expect.stringMatching(/^\[the image above is not shown: .*base64/),
    ]);
  });

  it('a result without image or audio blocks is its text, as before', () => {
    expect(toolOutput('t', { content: [{ type: 'text', text: 'hello' }] }, undefined)).toBe('hello');
  });
});
