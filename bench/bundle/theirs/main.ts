// The same page on the Vercel AI SDK (ai@6): generateText + tool, the loop on the page.
// No OpenAI-compatible provider package is installed, so the model is a string id, which
// `ai` resolves through its built-in default provider (the AI Gateway, fetch-based).
// `ai-v6`: ai@6.0.325 under an npm alias (the project's `ai` devDependency is v7, for the ai-sdk entry).
import { generateText, jsonSchema, stepCountIs, tool } from 'ai-v6';

const tools = {
  read_title: tool({
    description: 'The title of this page',
    inputSchema: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
    execute: async () => document.title,
  }),
};

const out = document.querySelector('#out')!;
document.querySelector<HTMLFormElement>('#ask')!.addEventListener('submit', async (event) => {
  event.preventDefault();
  const prompt = new FormData(event.target as HTMLFormElement).get('q') as string;
  const result = await generateText({ model: 'openai/gpt-4o-mini', tools, prompt, stopWhen: stepCountIs(10) });
  out.textContent = `${result.text}\n(${result.steps.length} turns)`;
});
