/*
 * What of a server's config may be a credential, kept out of every message an MCP failure
 * carries (errors reach run events, logs, the page and, for a failed call, the model): the
 * URL's user-info and query values, as the OpenAI-compatible engine treats its base URL, and
 * every header value (engines/credential-secrets.ts, shared with the engine).
 */
import { credentialSecrets } from '../engines/credential-secrets.js';
import { redactSecrets } from '../engines/url-secrets.js';
import type { McpServerConfig } from './config.js';

/** The config's values that may be credentials, longest first (so a longer one is replaced before a piece of it). */
export function configSecrets(config: Pick<McpServerConfig, 'url' | 'headers'>): string[] {
  return credentialSecrets({ url: config.url, headers: config.headers });
}

/** `text` with every URL in it shown without user-info and query values, and each of `secrets` replaced by `***`. */
export function hideSecrets(text: string, secrets: readonly string[]): string {
  return redactSecrets(text, secrets);
}
