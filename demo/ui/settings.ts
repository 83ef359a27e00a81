// Engine settings. The API key lives in sessionStorage only (this tab), never in localStorage or IndexedDB.
import { redactURL } from 'ambi-web/worker';
import { mountMcpSettings } from './mcp-settings.js';

export interface Settings {
  mode: 'offline' | 'openai' | 'local';
  /** Local mode: a GGUF model URL (a picked file wins; it lives in memory only, see pickedModel). */
  modelURL: string;
  baseURL: string;
  model: string;
  apiKey: string;
  nativeTools: boolean;
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
  const field = <T extends HTMLInputElement>(name: string) => form.elements.namedItem(name) as T;
  document.querySelector('#open-settings')!.addEventListener('click', () => {
    const settings = loadSettings();
    for (const radio of form.querySelectorAll<HTMLInputElement>('input[name="mode"]')) radio.checked = radio.value === settings.mode;
    field('baseURL').value = settings.baseURL;
    field('model').value = settings.model;
    field('apiKey').value = settings.apiKey;
    field('nativeTools').checked = settings.nativeTools;
    field('modelURL').value = settings.modelURL;
    dialog.showModal();
  });
  dialog.addEventListener('close', () => {
    if (dialog.returnValue !== 'save') return;
    const chosen = form.querySelector<HTMLInputElement>('input[name="mode"]:checked')?.value;
    const mode = chosen === 'openai' || chosen === 'local' ? chosen : 'offline';
    picked = field('modelFile').files?.[0] ?? picked;
    const settings: Settings = {
      mode,
      baseURL: field('baseURL').value.trim(),
      model: field('model').value.trim(),
      apiKey: field('apiKey').value,
      nativeTools: field('nativeTools').checked,
      modelURL: field('modelURL').value.trim(),
    };
    saveSettings(settings);
    onChange(settings);
  });
  mountMcpSettings();
  showMode(loadSettings());
}

/** Say in the header which engine answers. */
export function showMode(settings: Settings): void {
  const label = document.querySelector<HTMLElement>('#mode-label')!;
  label.dataset.mode = settings.mode;
  label.textContent =
    settings.mode === 'openai'
      ? `Model: ${settings.model || '(unnamed)'} at ${settings.baseURL ? redactURL(settings.baseURL) : '(no URL)'}`
      : settings.mode === 'local'
        ? `Local model in this browser: ${picked?.name ?? (settings.modelURL ? redactURL(settings.modelURL) : '(none chosen)')}`
        : 'Offline walkthrough (no model)';
}
