// The AI SDK example: `useChat` on `ambiChatTransport`, the agent in a Web Worker, its tools on this page.
// The chat's id is the conversation, stored in IndexedDB: reload while a card waits and it is asked again.
import { ambiChatTransport } from 'ambi-web/ai-sdk';
import { createWorkerRunner } from 'ambi-web/worker';
import { createRoot } from 'react-dom/client';
import { ChatView } from './chat-view.js';
import { chooseEngine, chosenEngine } from './engine-choice.js';
import { keepListAcrossReloads, listTools } from './list-tools.js';
import { newChat } from './new-chat.js';

const list = document.querySelector<HTMLUListElement>('#list')!;
keepListAcrossReloads(list);
const { engine, label } = chosenEngine();
const runner = createWorkerRunner({ engine, database: 'ambi-web-ai-sdk-example', preamble: 'You keep the shopping list on this page.' });
for (const tool of listTools(list)) runner.tool(tool);

document.querySelector('#engine')!.textContent = label;
document.querySelector<HTMLFormElement>('#engine-form')!.addEventListener('submit', (event) => {
  event.preventDefault();
  chooseEngine(event.target as HTMLFormElement);
  location.reload();
});

const chat = newChat('shopping', ambiChatTransport(runner));
createRoot(document.querySelector('#chat')!).render(<ChatView chat={chat} resume title="Assistant" />);
