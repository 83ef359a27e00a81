// The note being edited, drawn on a canvas and handed to the model as an image (withParts): a
// model that sees images reads the note as the person sees it. Nothing leaves the browser but the
// request to the model the person chose; a text-only model gets a note that the image was left out.
import { defineTool, withParts } from 'ambi-web/worker';

const WIDTH = 480;
const LINE = 22;

/** The editor's title and body, wrapped to the canvas. */
function lines(context: OffscreenCanvasRenderingContext2D, text: string): string[] {
  const out: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/)) {
      const next = line ? `${line} ${word}` : word;
      if (context.measureText(next).width > WIDTH - 32 && line) {
        out.push(line);
        line = word;
      } else line = next;
    }
    out.push(line);
  }
  return out.slice(0, 20);
}

export const screenshotNoteTool = defineTool({
  name: 'screenshot_note',
  description: 'An image of the note being edited in the editor (its title and body as the person sees them).',
  parameters: { type: 'object', properties: {}, additionalProperties: false },
  readOnly: true,
  call: async () => {
    const form = document.querySelector<HTMLFormElement>('#editor-form');
    const data = form ? new FormData(form) : new FormData();
    const title = String(data.get('title') ?? '').trim() || '(no title)';
    const body = String(data.get('body') ?? '');
    const measure = new OffscreenCanvas(WIDTH, 10).getContext('2d')!;
    measure.font = '15px sans-serif';
    const wrapped = lines(measure, body);
    const canvas = new OffscreenCanvas(WIDTH, 64 + LINE * wrapped.length);
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#fffdf4';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.fillStyle = '#1f2430';
    context.font = 'bold 18px sans-serif';
    context.fillText(title, 16, 32);
    context.font = '15px sans-serif';
    wrapped.forEach((line, i) => context.fillText(line, 16, 60 + LINE * i));
    const png = await canvas.convertToBlob({ type: 'image/png' });
    return withParts({ title, width: canvas.width, height: canvas.height }, [{ type: 'image', image: png }]);
  },
});
