// Engine settings. The API keys live in sessionStorage only (this tab), never in localStorage or IndexedDB.
// The dialog shows only the chosen mode's fields, and Save refuses what could not work (with why).
import { localModel, openAICompatible, redactURL } from 'ambi-web/worker';
import { builtInModelAvailable, HOSTED, type HostedProvider, hostedLabel, hostedProblem, isHostedProvider } from './engine-choices.js';
import { mountMcpSettings } from './mcp-settings.js';

const MODES = ['offline', 'openai', 'local', 'hosted', 'builtin'] as const;
const isMode = (value: unknown): value is Settings['mode'] => (MODES as readonly unknown[]).includes(value);

export interface Settings {
  /** `hosted`: Anthropic, Google or OpenAI with the person's key; `builtin`: Chrome's built-in model. */
  mode: (typeof MODES)[number];
  /** Local mode: a GGUF model URL (a picked file wins; it lives in memory only, see pickedModel). */
  modelURL: string;
  baseURL: string;
  model: string;
  apiKey: string;
  nativeTools: boolean;
  /** How untrusted content reaches the model: marked (`'mark'`), or held as values it passes by reference (`'hold'`). */
  untrusted: 'mark' | 'hold';
  /** Code Mode: the model writes programs that call the tools (`codeMode` on the runner). */
  codeMode: boolean;
  provider: HostedProvider;
  providerModel: string;
  providerKey: string;
  /** A proxy of the person's own in front of the provider (optional). */
  providerBaseURL: string;
}

const KEY = 'ambi-demo:settings';
let picked: File | undefined;

/** The .gguf file picked in the settings, for this page's lifetime (a model is too big to store twice). */
export function pickedModel(): File | undefined {
  return picked;
}
const API_KEY = 'ambi-demo:api-key';
const PROVIDER_KEY = 'ambi-demo:provider-key';

/** The saved settings (offline by default, also when what is saved is unreadable). */
export function loadSettings(): Settings {
  const saved = savedSettings();
  const provider = isHostedProvider(saved.provider) ? saved.provider : 'anthropic';
  return {
    mode: isMode(saved.mode) ? saved.mode : 'offline',
    modelURL: saved.modelURL ?? '',
    baseURL: saved.baseURL ?? '',
    model: saved.model ?? '',
    nativeTools: saved.nativeTools ?? true,
    untrusted: saved.untrusted === 'hold' ? 'hold' : 'mark',
    codeMode: saved.codeMode === true,
    apiKey: sessionStorage.getItem(API_KEY) ?? '',
    provider,
    providerModel: saved.providerModel ?? HOSTED[provider].model,
    providerKey: sessionStorage.getItem(PROVIDER_KEY) ?? '',
    providerBaseURL: saved.providerBaseURL ?? '',
  };
}

function savedSettings(): Partial<Settings> {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    return typeof saved === 'object' && saved !== null ? saved : {};
  } catch {
    return {};
  }
}

export function saveSettings(settings: Settings): void {
  const { apiKey, providerKey, ...rest } = settings;
  localStorage.setItem(KEY, JSON.stringify(rest));
  for (const [key, value] of [
    [API_KEY, apiKey],
    [PROVIDER_KEY, providerKey],
  ] as const) {
    if (value) sessionStorage.setItem(key, value);
    else sessionStorage.removeItem(key);
  }
}

/** Wire the settings dialog; `onChange` runs after a save. */
export function mountSettings(onChange: (settings: Settings) => void): void {
  const dialog = document.querySelector<HTMLDialogElement>('#settings')!;
  const form = document.querySelector<HTMLFormElement>('#settings-form')!;
  const error = document.querySelector<HTMLElement>('#settings-error')!;
  const field = <T extends HTMLInputElement>(name: string) => form.elements.namedItem(name) as T;
  const chosenMode = (): Settings['mode'] => {
    const chosen = form.querySelector<HTMLInputElement>('input[name="mode"]:checked')?.value;
    return isMode(chosen) ? chosen : 'offline';
  };
  const providerField = form.elements.namedItem('provider') as HTMLSelectElement;
  const chosenProvider = (): HostedProvider => (isHostedProvider(providerField.value) ? providerField.value : 'anthropic');
  // A provider's own model name as the placeholder (and the field, while it still holds another provider's default).
  providerField.addEventListener('change', () => {
    const model = field('providerModel');
    if (Object.values(HOSTED).some((hosted) => hosted.model === model.value)) model.value = HOSTED[chosenProvider()].model;
    model.placeholder = HOSTED[chosenProvider()].model;
  });
  // Chrome's built-in model is offered only where the browser has it (or can download it).
  const builtin = form.querySelector<HTMLElement>('[data-needs="prompt-api"]')!;
  void builtInModelAvailable().then((available) => (builtin.hidden = !available));
  const read = (): Settings => ({
    mode: chosenMode(),
    baseURL: field('baseURL').value.trim(),
    model: field('model').value.trim(),
    apiKey: field('apiKey').value,
    nativeTools: field('nativeTools').checked,
    modelURL: field('modelURL').value.trim(),
    untrusted: field('holdUntrusted').checked ? 'hold' : 'mark',
    codeMode: field('codeMode').checked,
    provider: chosenProvider(),
    providerModel: field('providerModel').value.trim(),
    providerKey: field('providerKey').value.trim(),
    providerBaseURL: field('providerBaseURL').value.trim(),
  });
  // Only the chosen mode's fields: an offline demo asks for nothing, an endpoint for its URL and model.
  const showFields = () => {
    const mode = chosenMode();
    for (const group of form.querySelectorAll<HTMLElement>('.mode-fields')) group.hidden = group.dataset.for !== mode;
    error.hidden = true;
  };
  for (const radio of form.querySelectorAll<HTMLInputElement>('input[name="mode"]')) radio.addEventListener('change', showFields);

  document.querySelector('#open-settings')!.addEventListener('click', () => {
    const settings = loadSettings();
    for (const radio of form.querySelectorAll<HTMLInputElement>('input[name="mode"]')) radio.checked = radio.value === settings.mode;
    field('baseURL').value = settings.baseURL;
    field('model').value = settings.model;
    field('apiKey').value = settings.apiKey;
    field('nativeTools').checked = settings.nativeTools;
    field('modelURL').value = settings.modelURL;
    field('holdUntrusted').checked = settings.untrusted === 'hold';
    field('codeMode').checked = settings.codeMode;
    providerField.value = settings.provider;
    field('providerModel').value = settings.providerModel;
    field('providerKey').value = settings.providerKey;
    field('providerBaseURL').value = settings.providerBaseURL;
    showFields();
    dialog.showModal();
  });
  // Save checks first: an endpoint without its URL or model, or a local mode without a model, is not saved.
  form.addEventListener('submit', (event) => {
    if ((event.submitter as HTMLButtonElement | null)?.value !== 'save') return;
    const problem = problemOf(read(), field('modelFile').files?.[0] ?? picked);
    error.hidden = problem === undefined;
    error.textContent = problem ?? '';
    if (problem) event.preventDefault();
  });
  dialog.addEventListener('close', () => {
    if (dialog.returnValue !== 'save') return;
    picked = field('modelFile').files?.[0] ?? picked;
    const settings = read();
    saveSettings(settings);
    onChange(settings);
  });
  mountMcpSettings();
  showMode(loadSettings());
}

/** Why `settings` cannot be used, in words for the person; undefined when they can. */
export function problemOf(settings: Settings, file: File | undefined): string | undefined {
  try {
    if (settings.mode === 'openai') {
      if (!settings.baseURL) return "Give the endpoint's base URL, e.g. http://localhost:11434/v1.";
      if (!/^https?:\/\//i.test(settings.baseURL)) return 'The base URL must start with http:// or https://, e.g. http://localhost:11434/v1.';
      if (!settings.model) return "Give the model's name, e.g. qwen2.5:7b.";
      // The SDK's own checks (a key or password inside the URL is refused, for one).
      openAICompatible({ baseURL: settings.baseURL, model: settings.model });
    }
    if (settings.mode === 'local') {
      if (!file && !settings.modelURL) return 'Choose a .gguf file, or give a model URL.';
      localModel({ source: file ?? settings.modelURL });
    }
    if (settings.mode === 'hosted') return hostedProblem(settings.provider, settings.providerModel, settings.providerKey, settings.providerBaseURL);
    if (settings.mode === 'builtin' && !('LanguageModel' in globalThis)) return "This browser has no built-in model (Chrome's Prompt API).";
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^\w+: /, '') : String(error);
  }
  return undefined;
}

/** Say in the header which engine answers (settings saved before Save checked them may be incomplete: say so). */
export function showMode(settings: Settings): void {
  const label = document.querySelector<HTMLElement>('#mode-label')!;
  const problem = settings.mode === 'offline' ? undefined : problemOf(settings, picked);
  label.dataset.mode = problem ? 'incomplete' : settings.mode;
  const what = { openai: 'Endpoint', local: 'Local model', hosted: HOSTED[settings.provider].name, builtin: "Chrome's built-in model", offline: '' }[
    settings.mode
  ];
  label.textContent = problem
    ? `${what} not set up: open Settings`
    : settings.mode === 'openai'
      ? `Model: ${settings.model} at ${redactURL(settings.baseURL)}`
      : settings.mode === 'local'
        ? `Local model in this browser: ${picked?.name ?? redactURL(settings.modelURL)}`
        : settings.mode === 'hosted'
          ? hostedLabel(settings.provider, settings.providerModel, settings.providerBaseURL)
          : settings.mode === 'builtin'
            ? "Chrome's built-in model, on this device"
            : 'Offline walkthrough (no model)';
}
