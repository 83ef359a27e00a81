// The engines the demo offers beyond an endpoint and a local model: a hosted model with the
// person's own key (Anthropic, Google, OpenAI, built in the demo's own runner worker,
// demo/runner.worker.ts), and Chrome's built-in model where this browser has it.
import { redactURL } from 'ambi-web/worker';

export type HostedProvider = 'anthropic' | 'google' | 'openai';

/** What the page sends the demo's runner worker for a hosted model: plain data (the worker builds the model). */
export interface HostedConfig {
  kind: HostedProvider;
  apiKey: string;
  model: string;
  /** A proxy of the person's own that adds the key (the key field may then hold anything). */
  baseURL?: string;
}

export const HOSTED: Record<HostedProvider, { name: string; model: string }> = {
  anthropic: { name: 'Anthropic', model: 'claude-sonnet-4-5' },
  google: { name: 'Google', model: 'gemini-2.5-flash' },
  openai: { name: 'OpenAI', model: 'gpt-5-mini' },
};

export const isHostedProvider = (value: unknown): value is HostedProvider => value === 'anthropic' || value === 'google' || value === 'openai';

/** Why a hosted model's settings cannot work, in words for the person; undefined when they can. */
export function hostedProblem(provider: HostedProvider, model: string, key: string, baseURL: string): string | undefined {
  if (!model) return `Give the model's name, e.g. ${HOSTED[provider].model}.`;
  if (!key && !baseURL) return `Give your ${HOSTED[provider].name} API key (it stays in this tab), or a proxy's base URL.`;
  if (baseURL && !/^https?:\/\//i.test(baseURL)) return 'The proxy base URL must start with http:// or https://.';
  return undefined;
}

/** The engine config of a hosted model. */
export function hostedConfig(provider: HostedProvider, model: string, key: string, baseURL: string): HostedConfig {
  return { kind: provider, apiKey: key || 'set-by-the-proxy', model, ...(baseURL ? { baseURL } : {}) };
}

export function hostedLabel(provider: HostedProvider, model: string, baseURL: string): string {
  return `${HOSTED[provider].name}: ${model}${baseURL ? ` via ${redactURL(baseURL)}` : ''} (your key, this tab only)`;
}

/** The demo's own runner worker: ambi-web's, plus the hosted models. */
export const hostedRunnerWorker = () => new Worker(new URL('../runner.worker.ts', import.meta.url), { type: 'module' });

/** Whether this browser has Chrome's built-in model, or can download it (the Prompt API's `availability()`). */
export async function builtInModelAvailable(): Promise<boolean> {
  const model = (globalThis as { LanguageModel?: { availability(options?: unknown): Promise<string> } }).LanguageModel;
  if (!model) return false;
  try {
    const expected = [{ type: 'text', languages: ['en'] }];
    return (await model.availability({ expectedInputs: expected, expectedOutputs: expected })) !== 'unavailable';
  } catch {
    return false;
  }
}
