// Engine settings of the panel: offline (the scripted walkthrough), an OpenAI-compatible endpoint,
// or a local model run in the browser. The API key stays in this panel's sessionStorage only.
import { redactURL } from 'ambi-web/worker';

export interface Settings {
  mode: 'offline' | 'openai' | 'local';
  baseURL: string;
  model: string;
  apiKey: string;
  nativeTools: boolean;
  /** Local mode: a GGUF model's URL. */
  modelURL: string;
  /** How the tab's words reach the model: marked (`'mark'`), or held as values it passes by reference (`'hold'`). */
  untrusted: 'mark' | 'hold';
}

const KEY = 'ambi-extension:settings';
const API_KEY = 'ambi-extension:api-key';

/** The saved settings (offline by default, also when what is saved is unreadable). */
export function loadSettings(): Settings {
  let saved: Partial<Settings> = {};
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '{}');
    if (typeof parsed === 'object' && parsed !== null) saved = parsed;
  } catch {
    // unreadable: the defaults
  }
  return {
    mode: saved.mode === 'openai' || saved.mode === 'local' ? saved.mode : 'offline',
    baseURL: typeof saved.baseURL === 'string' ? saved.baseURL : '',
    model: typeof saved.model === 'string' ? saved.model : '',
    nativeTools: saved.nativeTools !== false,
    modelURL: typeof saved.modelURL === 'string' ? saved.modelURL : '',
    untrusted: saved.untrusted === 'hold' ? 'hold' : 'mark',
    apiKey: sessionStorage.getItem(API_KEY) ?? '',
  };
}

function saveSettings(settings: Settings): void {
  const { apiKey, ...rest } = settings;
  localStorage.setItem(KEY, JSON.stringify(rest));
  if (apiKey) sessionStorage.setItem(API_KEY, apiKey);
  else sessionStorage.removeItem(API_KEY);
}

/** Wire the settings dialog; the header says which engine answers. */
export function mountSettings(): void {
  const dialog = document.querySelector<HTMLDialogElement>('#settings')!;
  const form = document.querySelector<HTMLFormElement>('#settings-form')!;
  const field = (name: string) => form.elements.namedItem(name) as HTMLInputElement;
  document.querySelector('#open-settings')!.addEventListener('click', () => {
    const settings = loadSettings();
    for (const radio of form.querySelectorAll<HTMLInputElement>('input[name="mode"]')) radio.checked = radio.value === settings.mode;
    field('baseURL').value = settings.baseURL;
    field('model').value = settings.model;
    field('apiKey').value = settings.apiKey;
    field('nativeTools').checked = settings.nativeTools;
    field('modelURL').value = settings.modelURL;
    field('holdUntrusted').checked = settings.untrusted === 'hold';
    dialog.showModal();
  });
  dialog.addEventListener('close', () => {
    if (dialog.returnValue !== 'save') return;
    const chosen = form.querySelector<HTMLInputElement>('input[name="mode"]:checked')?.value;
    saveSettings({
      mode: chosen === 'openai' || chosen === 'local' ? chosen : 'offline',
      baseURL: field('baseURL').value.trim(),
      model: field('model').value.trim(),
      apiKey: field('apiKey').value,
      nativeTools: field('nativeTools').checked,
      modelURL: field('modelURL').value.trim(),
      untrusted: field('holdUntrusted').checked ? 'hold' : 'mark',
    });
    showMode();
  });
  showMode();
}

function showMode(): void {
  const settings = loadSettings();
  const label = document.querySelector<HTMLElement>('#mode-label')!;
  label.dataset.mode = settings.mode;
  label.textContent =
    settings.mode === 'openai'
      ? `Model: ${settings.model || '(unnamed)'} at ${settings.baseURL ? redactURL(settings.baseURL) : '(no URL)'}`
      : settings.mode === 'local'
        ? `Local model: ${settings.modelURL ? redactURL(settings.modelURL) : '(none chosen)'}`
        : 'Offline walkthrough (no model)';
}
