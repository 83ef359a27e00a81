// Engine settings. The API key lives in sessionStorage only (this tab), never in localStorage or IndexedDB.
// The dialog shows only the chosen mode's fields, and Save refuses what could not work (with why).
import { localModel, openAICompatible, redactURL } from 'ambi-web/worker';
import { mountMcpSettings } from './mcp-settings.js';

export interface Settings {
  mode: 'offline' | 'openai' | 'local';
  /** Local mode: a GGUF model URL (a picked file wins; it lives in memory only, see pickedModel). */
  modelURL: string;
  baseURL: string;
  model: string;
  apiKey: string;
  nativeTools: boolean;
  /** How untrusted content reaches the model: marked (`'mark'`), or held as values it passes by reference (`'hold'`). */
  untrusted: 'mark' | 'hold';
}

const KEY = 'ambi-demo:settings';
let picked: File | undefined;

/** The .gguf file picked in the settings, for this page's lifetime (a model is too big to store twice). */
export function pickedModel(): File | undefined {
  return picked;
}
const API_KEY = 'ambi-demo:api-key';

/** The saved settings (offline by default, also when what is saved is unreadable). */
export function loadSettings(): Settings {
  const saved = savedSettings();
  return {
    mode: saved.mode === 'openai' || saved.mode === 'local' ? saved.mode : 'offline',
    modelURL: saved.modelURL ?? '',
    baseURL: saved.baseURL ?? '',
    model: saved.model ?? '',
    nativeTools: saved.nativeTools ?? true,
    untrusted: saved.untrusted === 'hold' ? 'hold' : 'mark',
    apiKey: sessionStorage.getItem(API_KEY) ?? '',
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
  const { apiKey, ...rest } = settings;
  localStorage.setItem(KEY, JSON.stringify(rest));
  if (apiKey) sessionStorage.setItem(API_KEY, apiKey);
  else sessionStorage.removeItem(API_KEY);
}

/** Wire the settings dialog; `onChange` runs after a save. */
export function mountSettings(onChange: (settings: Settings) => void): void {
  const dialog = document.querySelector<HTMLDialogElement>('#settings')!;
  const form = document.querySelector<HTMLFormElement>('#settings-form')!;
  const error = document.querySelector<HTMLElement>('#settings-error')!;
  const field = <T extends HTMLInputElement>(name: string) => form.elements.namedItem(name) as T;
  const chosenMode = (): Settings['mode'] => {
    const chosen = form.querySelector<HTMLInputElement>('input[name="mode"]:checked')?.value;
    return chosen === 'openai' || chosen === 'local' ? chosen : 'offline';
  };
  const read = (): Settings => ({
    mode: chosenMode(),
    baseURL: field('baseURL').value.trim(),
    model: field('model').value.trim(),
    apiKey: field('apiKey').value,
    nativeTools: field('nativeTools').checked,
    modelURL: field('modelURL').value.trim(),
    untrusted: field('holdUntrusted').checked ? 'hold' : 'mark',
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
  label.textContent = problem
    ? `${settings.mode === 'openai' ? 'Endpoint' : 'Local model'} not set up: open Settings`
    : settings.mode === 'openai'
      ? `Model: ${settings.model} at ${redactURL(settings.baseURL)}`
      : settings.mode === 'local'
        ? `Local model in this browser: ${picked?.name ?? redactURL(settings.modelURL)}`
        : 'Offline walkthrough (no model)';
}
