import type { McpLoginOutcome } from './auth-records.js';

/** The BroadcastChannel a redirect page tells the origin's pages of a finished login on. */
export const LOGIN_CHANNEL = 'ambi-web:mcp-login';

/** What a redirect page posts when a login ended. */
export interface LoginMessage {
  state: string;
  outcome: McpLoginOutcome;
}

/** Tell the origin's pages (the one that opened the login window among them) how the login `state` ended. */
export function announceLogin(message: LoginMessage): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(LOGIN_CHANNEL);
  channel.postMessage(message);
  channel.close();
}

/** Whether `value` is a LoginMessage (another script of the origin may post anything on the channel). */
export function isLoginMessage(value: unknown): value is LoginMessage {
  if (typeof value !== 'object' || value === null) return false;
  const { state, outcome } = value as Partial<LoginMessage>;
  return typeof state === 'string' && typeof outcome === 'object' && outcome !== null && typeof outcome.ok === 'boolean';
}
