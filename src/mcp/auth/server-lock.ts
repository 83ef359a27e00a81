interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** Each lock name's last holder in this realm, for realms without Web Locks (Node). */
const chains = new Map<string, Promise<unknown>>();

const localLocks: LockManagerLike = {
  async request(name, callback) {
    const before = chains.get(name) ?? Promise.resolve();
    const mine = before.catch(() => {}).then(callback);
    chains.set(name, mine);
    try {
      return await mine;
    } finally {
      if (chains.get(name) === mine) chains.delete(name);
    }
  },
};

/**
 * Run `work` holding the lock of one server's credentials: Web Locks where the realm has them, so
 * the tabs and workers of an origin never refresh the same tokens at once (an authorization server
 * that rotates refresh tokens would refuse the second as reused, and log the person out); an
 * in-realm queue otherwise.
 */
export function withServerLock<T>(server: string, work: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks ?? localLocks;
  return locks.request(`ambi-web:mcp-auth:${server}`, work);
}
