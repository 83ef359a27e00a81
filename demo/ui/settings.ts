// Engine settings. The API key lives in sessionStorage only (this tab), never in localStorage or IndexedDB.
export interface Settings {
  mode: 'offline' | 'openai';
  baseURL: string;
  model: string;
  apiKey: string;
  nativeTools: boolean;
}

const KEY = 'ambi-demo:settings';
const API_KEY = 'ambi-demo:api-key';

/** The saved settings (offline by default). */
export function loadSettings(): Settings {
  const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Settings>;
  return {
    mode: saved.mode === 'openai' ? 'openai' : 'offline',
    baseURL: saved.baseURL ?? '',
    model: saved.model ?? '',
    nativeTools: saved.nativeTools ?? true,
    apiKey: sessionStorage.getItem(API_KEY) ?? '',
  };
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
    dialog.showModal();
  });
  dialog.addEventListener('close', () => {
    if (dialog.returnValue !== 'save') return;
    const mode = form.querySelector<HTMLInputElement>('input[name="mode"]:checked')?.value === 'openai' ? 'openai' : 'offline';
    const settings: Settings = {
      mode,
      baseURL: field('baseURL').value.trim(),
      model: field('model').value.trim(),
      apiKey: field('apiKey').value,
      nativeTools: field('nativeTools').checked,
    };
    saveSettings(settings);
    onChange(settings);
  });
  showMode(loadSettings());
}

/** Say in the header which engine answers. */
export function showMode(settings: Settings): void {
  const label = document.querySelector<HTMLElement>('#mode-label')!;
  label.dataset.mode = settings.mode;
  label.textContent = settings.mode === 'openai' ? `Model: ${settings.model || '(unnamed)'} at ${settings.baseURL || '(no URL)'}` : 'Offline walkthrough (no model)';
}
