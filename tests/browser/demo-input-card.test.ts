// The demo's form card for a server's questions (demo/ui/input-cards.ts), drawn in a real page: the
// form from the server's schema, its words as text, the answers typed as the schema says, a refused
// answer keeping the form, Decline refusing.
import { afterEach, describe, expect, it } from 'vitest';
import { InputCards } from '../../demo/ui/input-cards.js';
import { AmbiError, type RunEvent } from '../../src/index.js';

let chat: HTMLElement;
afterEach(() => chat.remove());

const asked: Extract<RunEvent, { type: 'input_requested' }> = {
  type: 'input_requested',
  callId: 'call_1',
  name: 'book',
  untrusted: { source: 'mcp:https://travel.example/mcp' },
  requests: [
    {
      key: 'seat',
      message: '<img src=x onerror="window.pwned=1">Which seat?',
      schema: {
        type: 'object',
        properties: {
          seat: { type: 'string', title: 'Seat', enum: ['aisle', 'window'] },
          bags: { type: 'integer', title: 'Bags', minimum: 0, maximum: 3 },
          meal: { type: 'boolean', title: 'Meal' },
          note: { type: 'string', title: '<b>Note</b>' },
        },
        required: ['seat', 'bags'],
      },
    },
  ],
};

/** The card's run: each respond is recorded, and answered by `answer`. */
function mount(answer: (values: unknown) => Promise<void>) {
  chat = document.createElement('ul');
  document.body.append(chat);
  const responses: unknown[] = [];
  const cards = new InputCards(chat, {
    respond: (_callId, values) => {
      responses.push(values);
      return answer(values);
    },
  });
  cards.ask(asked);
  return { cards, responses };
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const click = (label: string) => [...chat.querySelectorAll('button')].find((b) => b.textContent === label)!.click();

describe('the demo form card for a server question', () => {
  it("draws a field per schema property, keeps the server's words as text, and sends typed answers", async () => {
    const { responses } = mount(async () => {});
    expect(chat.querySelector('img')).toBeNull();
    expect(chat.querySelector('b')).toBeNull();
    expect(chat.querySelector('legend')!.textContent).toBe('<img src=x onerror="window.pwned=1">Which seat?');
    expect(chat.querySelector('.from')!.textContent).toContain('the MCP server at https://travel.example/mcp');
    expect([...chat.querySelectorAll('select option')].map((o) => o.textContent)).toEqual(['', 'aisle', 'window']);
    const [seat] = chat.querySelectorAll('select');
    const [bags, meal] = chat.querySelectorAll('input');
    seat!.value = '1';
    bags!.value = '2';
    (meal as HTMLInputElement).checked = true;
    click('Send');
    await settle();
    expect(responses).toEqual([{ seat: { seat: 'window', bags: 2, meal: true } }]);
    expect(chat.textContent).toBe('book: Answered.');
  });

  it('an answer the runner refuses keeps the form and says why; Decline refuses with null', async () => {
    let refuse = true;
    const { responses } = mount(async () => {
      if (refuse) throw new AmbiError('invalid_input', 'question "seat": the field "seat" is required');
    });
    click('Send');
    await settle();
    expect(chat.querySelector('.problem')!.textContent).toBe('Not sent: question "seat": the field "seat" is required');
    expect(chat.querySelector('fieldset')).not.toBeNull();
    refuse = false;
    click('Decline');
    await settle();
    expect(responses.at(-1)).toBeNull();
    expect(chat.textContent).toBe('book: Declined.');
  });
});
