// AG-UI's input content into a run (issue 47): a user message's content parts, as AG-UI 1.0's own
// schemas accept them, become the run's parts and reach the engine's request with their bytes;
// what a run cannot send (a provider's file handle) or what is not a part is refused with a code.
import { UserMessageSchema } from '@ag-ui/core/schemas';
import { describe, expect, it } from 'vitest';
import { fromAgUiContent, type AgUiContentPart } from '../../src/ag-ui/index.js';
import { Agent, ChatRunner, isAmbiError } from '../../src/index.js';
import { bytesOf, PartsEngine, partsOf, PDF, PNG, PNG_BASE64 } from '../support/parts.js';

const PDF_BASE64 = Buffer.from(PDF).toString('base64');

function refusal(content: unknown): unknown {
  try {
    fromAgUiContent(content as AgUiContentPart[]);
  } catch (error) {
    return error;
  }
  throw new Error('not refused');
}

describe('AG-UI content parts into a run', () => {
  it("a user message AG-UI's schema accepts (text, an inline image, a document) reaches the engine with its bytes", async () => {
    const content: AgUiContentPart[] = [
      { type: 'text', text: 'What do these say?' },
      { type: 'image', source: { type: 'data', value: PNG_BASE64, mimeType: 'image/png' } },
      { type: 'document', source: { type: 'data', value: PDF_BASE64, mimeType: 'application/pdf' } },
    ];
    // The peer's own schema: this is a message an AG-UI front end sends.
    expect(UserMessageSchema.safeParse({ id: 'm1', role: 'user', content }).success).toBe(true);

    const engine = new PartsEngine(['A pixel and a report.']);
    const run = new ChatRunner().run(await Agent.make(engine), fromAgUiContent(content));
    expect(await run.result).toMatchObject({ text: 'A pixel and a report.' });
    const user = engine.requests[0]!.messages.at(-1)!;
    expect(user.content).toEqual([
      { type: 'text', text: 'What do these say?' },
      { type: 'image', image: expect.any(Blob), mediaType: 'image/png' },
      { type: 'file', data: expect.any(Blob), mediaType: 'application/pdf' },
    ]);
    const [image, file] = partsOf(user) as Array<{ image?: Blob; data?: Blob }>;
    expect(await bytesOf(image!.image)).toEqual(PNG);
    expect(await bytesOf(file!.data)).toEqual(PDF);
  });

  it('a string stays the words; a URL source stays a URL, with its media type when given', () => {
    expect(fromAgUiContent('Hello')).toBe('Hello');
    expect(
      fromAgUiContent([
        { type: 'image', source: { type: 'url', value: 'https://example.com/a.png' } },
        { type: 'audio', source: { type: 'url', value: 'https://example.com/a.wav', mimeType: 'audio/wav' } },
      ]),
    ).toEqual([
      { type: 'image', image: 'https://example.com/a.png' },
      { type: 'file', data: 'https://example.com/a.wav', mediaType: 'audio/wav' },
    ]);
  });

  it('a part held at a provider under a handle is refused unsupported_content, naming the part (not dropped unsaid)', () => {
    const error = refusal([
      { type: 'text', text: 'Read this' },
      { type: 'document', source: { type: 'file', value: 'file-abc123', provider: 'openai' } },
    ]);
    expect(isAmbiError(error) && error.code).toBe('unsupported_content');
    expect(error).toMatchObject({ part: 'part 2 (document)' });
    expect(String((error as Error).message)).toContain('openai');
  });

  it('hostile content: unknown types, __proto__ as a type, no source, a media type that would rewrite the data: URL, a file with no media type', () => {
    const cases: unknown[] = [
      [{ type: '__proto__', text: 'x' }],
      [{ type: 'image' }],
      [{ type: 'image', source: { type: 'data', value: PNG_BASE64, mimeType: 'text/html,<script>alert(1)</script>;x' } }],
      [{ type: 'image', source: { type: 'data', value: PNG_BASE64 } }],
      [{ type: 'video', source: { type: 'url', value: 'https://example.com/v' } }],
      [{ type: 'image', source: { type: 'ftp', value: 'x' } }],
      [null],
      { length: 1, 0: { type: 'text', text: 'not an array' } },
    ];
    for (const content of cases) {
      const error = refusal(content);
      expect(isAmbiError(error) && error.code, JSON.stringify(content)).toBe('invalid_content');
    }
  });

  it('inline bytes that are not the image they claim are refused by the run as any input is (invalid_content), before any request', async () => {
    const engine = new PartsEngine(['never']);
    const run = new ChatRunner().run(
      await Agent.make(engine),
      fromAgUiContent([{ type: 'image', source: { type: 'data', value: PDF_BASE64, mimeType: 'image/png' } }]),
    );
    const error = await run.result.catch((caught: unknown) => caught);
    expect(isAmbiError(error) && error.code).toBe('invalid_content');
    expect(engine.requests).toHaveLength(0);
  });
});
