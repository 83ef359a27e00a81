import type { HeldHandle, JsonValue } from '../../../core/types.js';
import type { HeldEntry, HeldInfo, HeldRecord, HeldValueStore } from '../../../store/held-types.js';

/**
 * The held values a run and its leaves share (`untrusted: 'hold'`): those of its conversation, in
 * the conversation store's `held`, or, for a run without a conversation, in a store of the run's
 * own. What is known of each (not the value) is read once, when the run opens, so that an event
 * can name where a held argument came from at once; values are read only when a call or the
 * answer names them.
 */
export class HeldValues {
  /** What is known of each held value of the conversation, by id. */
  readonly #known = new Map<string, HeldInfo>();
  #loading: Promise<void> | undefined;

  constructor(
    readonly store: HeldValueStore,
    readonly conversation: string,
  ) {}

  /** Read what the conversation holds (once, whichever run of the tree asks first). */
  load(): Promise<void> {
    this.#loading ??= this.store.list(this.conversation).then((infos) => {
      for (const info of infos) this.#known.set(info.id, info);
    });
    return this.#loading;
  }

  /** Whether the conversation holds any value. */
  holdsAny(): boolean {
    return this.#known.size > 0;
  }

  /** What is known of held value `id`, if the conversation holds it. */
  info(id: string): HeldInfo | undefined {
    return this.#known.get(id);
  }

  /** Hold `entry` under the conversation's next id. */
  async hold(entry: HeldEntry): Promise<HeldInfo> {
    const info = await this.store.hold(this.conversation, entry);
    this.#known.set(info.id, info);
    return info;
  }

  /** The value held under `id`, if the conversation holds it. */
  async get(id: string): Promise<HeldRecord | undefined> {
    return this.store.get(this.conversation, id);
  }

  /** The values held under `ids`, by id; undefined if one of them is not held. */
  async values(ids: Iterable<string>): Promise<Map<string, JsonValue> | undefined> {
    const unique = [...new Set(ids)];
    const records = await Promise.all(unique.map((id) => this.get(id)));
    if (records.some((record) => record === undefined)) return undefined;
    // Held since this run read the list (another page of the app, say): known from here on, so the
    // call's policy judges every value it carries.
    for (const { value: _, parts: __, ...info } of records as HeldRecord[]) if (!this.#known.has(info.id)) this.#known.set(info.id, info);
    return new Map(records.map((record) => [record!.id, record!.value]));
  }
}

/** What the model reads of a held value: its id, its tool, its JSON type and the length of its JSON, in that order. */
export function handleOf(info: HeldInfo): HeldHandle {
  return { held: info.id, from: info.from, type: info.type, length: info.length, ...(info.partCount ? { parts: info.partCount } : {}) };
}
