// A useChat file part through ambiChatTransport, in Chromium (issue 47): the AI SDK's own Chat sends
// a message with files from a FileList (as an <input type="file"> gives them: it makes data: URLs),
// the transport turns them into a run's image and file parts, and the runner worker keeps them as
// Blobs in IndexedDB and sends them to the model.
import { describe, expect, it, afterEach } from 'vitest';
import { newChat } from '../../demo/ai-sdk/new-chat.js';
import { ambiChatTransport } from '../../src/ai-sdk/index.js';
import { IndexedDbConversationStore } from '../../src/index.js';
import { freshDatabases } from '../support/fresh-databases.js';
import { PDF, PNG } from '../support/parts.js';
import { openRunners } from '../support/worker-runners.js';

const runners = openRunners();
const databases = freshDatabases('parts-chat');
afterEach(async () => {
  runners.closeAll();
  await databases.deleteAll();
});

/** A FileList, as a file input gives one. */
function fileList(...files: File[]): FileList {
  const transfer = new DataTransfer();
  for (const file of files) transfer.items.add(file);
  return transfer.files;
}

describe('useChat file parts through ambiChatTransport', () => {
  it('an image and a PDF attached to a message reach the run as parts, stored as Blobs, sent to the model', async () => {
    const database = databases.fresh();
    const runner = runners.runnerWith(['A dot and a report.'], { database, record: true });
    const chat = newChat('attachments', ambiChatTransport(runner));
    await chat.sendMessage({
      text: 'What are these?',
      files: fileList(new File([PNG], 'dot.png', { type: 'image/png' }), new File([PDF], 'report.pdf', { type: 'application/pdf' })),
    });
    expect(chat.status).toBe('ready');
    expect(chat.messages[0]!.parts.map((part) => part.type)).toEqual(['file', 'file', 'text']);
    expect(chat.messages[1]!.parts.filter((part) => part.type === 'text').map((part) => (part as { text: string }).text)).toEqual(['A dot and a report.']);

    const [user] = await (await IndexedDbConversationStore.open(database)).load('attachments');
    expect(user!.content).toEqual([
      { type: 'text', text: 'What are these?' },
      { type: 'image', image: expect.any(Blob), mediaType: 'image/png' },
      { type: 'file', data: expect.any(Blob), mediaType: 'application/pdf', filename: 'report.pdf' },
    ]);
    const pdf = (user!.content as Array<{ data?: Blob }>)[2]!.data!;
    expect(new Uint8Array(await pdf.arrayBuffer())).toEqual(PDF);
    // What the model got: the parts, named by the hash of their bytes in the runner's recording.
    const cassette = await runner.cassette();
    expect(
      Object.values(cassette.parts ?? {})
        .map((part) => part.mediaType)
        .sort(),
    ).toEqual(['application/pdf', 'image/png']);
  });

  it('a file part whose URL is a blob: URL is refused with invalid_content: the chat shows the error, nothing is stored', async () => {
    const database = databases.fresh();
    const runner = runners.runnerWith(['never'], { database });
    const chat = newChat('forged', ambiChatTransport(runner));
    await chat.sendMessage({ text: 'Look', files: [{ type: 'file', mediaType: 'image/png', url: URL.createObjectURL(new Blob([PNG])) }] });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toMatch(/blob: URL/);
    expect(await (await IndexedDbConversationStore.open(database)).load('forged')).toEqual([]);
  });
});
