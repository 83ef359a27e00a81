import { DEFAULT_DATABASE_NAME, openAmbiDatabase } from '../../store/database.js';
import { storageOperation } from '../../store/storage-failure.js';
import { queue, transact } from '../../store/transaction.js';
import { displayUrl } from '../display-url.js';
import type { McpLoginOutcome, McpLoginRecord, McpServerAuthRecord } from './auth-records.js';

/** How long a login begun may wait for its callback (the authorization server's own codes live shorter). */
export const LOGIN_LIFETIME_MS = 10 * 60_000;
/** The most logins kept waiting, over all servers: a page that starts logins in a loop fills nothing. */
const MAX_LOGINS = 32;
/** Strict: a token refreshed (and its predecessor revoked by rotation) must be on disk before it is used. */
const DURABLE: IDBTransactionOptions = { durability: 'strict' };

/** The key of a server's credentials: its URL without user-info, query or fragment. */
export function serverKey(url: string): string {
  return displayUrl(url);
}

const db = () => openAmbiDatabase(DEFAULT_DATABASE_NAME);

/** The server's stored credentials, if any. */
export function readServerAuth(server: string): Promise<McpServerAuthRecord | undefined> {
  return storageOperation(`read the MCP credentials of ${server}`, async () => usable((await (await db()).get('mcpAuth', server)) as unknown));
}

/** Change the server's credentials in one transaction (`change` returning undefined deletes them); resolves to what was stored. */
export function updateServerAuth(
  server: string,
  change: (record: McpServerAuthRecord) => McpServerAuthRecord | undefined,
): Promise<McpServerAuthRecord | undefined> {
  return storageOperation(`store the MCP credentials of ${server}`, async () =>
    transact(
      await db(),
      ['mcpAuth'],
      'readwrite',
      async (tx) => {
        const store = tx.objectStore('mcpAuth');
        const next = change(usable(await store.get(server)) ?? { server });
        queue(next ? store.put({ ...next, server }) : store.delete(server));
        return next;
      },
      DURABLE,
    ),
  );
}

/** Forget the server's credentials and its logins under way; resolves to what was stored (to revoke its tokens). */
export function forgetServerAuth(server: string): Promise<McpServerAuthRecord | undefined> {
  return storageOperation(`forget the MCP credentials of ${server}`, async () =>
    transact(await db(), ['mcpAuth', 'mcpLogins'], 'readwrite', async (tx) => {
      const record = usable(await tx.objectStore('mcpAuth').get(server));
      queue(tx.objectStore('mcpAuth').delete(server));
      const logins = tx.objectStore('mcpLogins');
      for (const login of (await logins.getAll()) as McpLoginRecord[]) if (login.server === server) queue(logins.delete(login.state));
      return record;
    }),
  );
}

/** Keep a login begun; logins past their lifetime, and the oldest beyond the cap, are dropped in the same transaction. */
export function saveLogin(login: McpLoginRecord): Promise<void> {
  return storageOperation(`keep the MCP login for ${login.server}`, async () =>
    transact(
      await db(),
      ['mcpLogins'],
      'readwrite',
      async (tx) => {
        const store = tx.objectStore('mcpLogins');
        queue(store.put(login));
        const keys = await store.index('createdAt').getAllKeys();
        const stale = await store.index('createdAt').getAllKeys(IDBKeyRange.upperBound(Date.now() - LOGIN_LIFETIME_MS));
        const dropped = new Set([...stale, ...keys.slice(0, Math.max(0, keys.length - MAX_LOGINS))]);
        for (const key of dropped) if (key !== login.state) queue(store.delete(key));
      },
      DURABLE,
    ),
  );
}

/** The login begun with `state`, unless there is none or it expired. */
export function readLogin(state: string): Promise<McpLoginRecord | undefined> {
  return storageOperation('read an MCP login', async () => {
    const login = (await (await db()).get('mcpLogins', state)) as McpLoginRecord | undefined;
    return login && typeof login.createdAt === 'number' && Date.now() - login.createdAt < LOGIN_LIFETIME_MS ? login : undefined;
  });
}

/** The newest login begun for `server` and not yet finished, if any. */
export function newestLogin(server: string): Promise<McpLoginRecord | undefined> {
  return storageOperation(`read the MCP logins of ${server}`, async () => {
    const all = (await (await db()).getAllFromIndex('mcpLogins', 'createdAt', IDBKeyRange.lowerBound(Date.now() - LOGIN_LIFETIME_MS))) as McpLoginRecord[];
    return all.filter((login) => login.server === server && login.outcome === undefined).at(-1);
  });
}

/** Change the login begun with `state` (nothing if it is gone): its outcome (the verifier is dropped then), or where it goes back to. */
export function updateLogin(state: string, change: { outcome?: McpLoginOutcome; returnTo?: string }): Promise<void> {
  return storageOperation('record an MCP login', async () =>
    transact(await db(), ['mcpLogins'], 'readwrite', async (tx) => {
      const store = tx.objectStore('mcpLogins');
      const login = (await store.get(state)) as McpLoginRecord | undefined;
      if (!login) return;
      const { codeVerifier, ...rest } = login;
      queue(store.put(change.outcome ? { ...rest, outcome: change.outcome } : { ...login, ...change }));
    }),
  );
}

/** A stored record as this code writes it, or nothing (a record from elsewhere is ignored, not trusted). */
function usable(value: unknown): McpServerAuthRecord | undefined {
  if (typeof value !== 'object' || value === null || typeof (value as McpServerAuthRecord).server !== 'string') return undefined;
  return value as McpServerAuthRecord;
}
