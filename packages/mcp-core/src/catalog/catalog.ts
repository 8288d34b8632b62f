import { LocalError } from '../errors/local-error.ts';
import { decodeListCursor, encodeListCursor } from './list-cursor.ts';

/** A page of a list result, in the shape every MCP list method answers with. */
export interface CatalogPage<Descriptor> {
  items: Descriptor[];
  nextCursor?: string;
}

/**
 * The named things a server offers — tools, prompts, resources — ordered by
 * key so that listing is deterministic however they were registered, paged
 * by key so that a change between pages shifts nothing. Each change calls
 * `onChange` once.
 */
export class Catalog<Item extends { readonly descriptor: object }> {
  readonly #items = new Map<string, { item: Item; enabled: boolean }>();
  readonly #kind: string;
  readonly #onChange: () => void;
  #listed: Item[] | undefined;

  /** `kind` names an item in errors ("tool", "prompt"). */
  constructor(kind: string, onChange: () => void) {
    this.#kind = kind;
    this.#onChange = onChange;
  }

  get size(): number {
    return this.#items.size;
  }

  add(key: string, item: Item): void {
    if (this.#items.has(key)) {
      throw new LocalError('tool_name_taken', `A ${this.#kind} named "${key}" is already registered`);
    }
    this.#items.set(key, { item, enabled: true });
    this.#changed();
  }

  remove(key: string): boolean {
    const removed = this.#items.delete(key);
    if (removed) this.#changed();
    return removed;
  }

  setEnabled(key: string, enabled: boolean): void {
    const entry = this.#items.get(key);
    if (entry === undefined) throw new LocalError('tool_definition_invalid', `No ${this.#kind} named "${key}"`);
    if (entry.enabled === enabled) return;
    entry.enabled = enabled;
    this.#changed();
  }

  /** The enabled item of that key. */
  get(key: string): Item | undefined {
    const entry = this.#items.get(key);
    return entry?.enabled ? entry.item : undefined;
  }

  /** Enabled items in key order. */
  list(): Item[] {
    this.#listed ??= [...this.#items.entries()]
      .filter(([, entry]) => entry.enabled)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([, entry]) => entry.item);
    return this.#listed;
  }

  keys(): string[] {
    return [...this.#items.entries()]
      .filter(([, entry]) => entry.enabled)
      .map(([key]) => key)
      .sort();
  }

  /**
   * One page after `cursor`; `method` names the list method in a bad-cursor
   * error. `shown` leaves out items this caller may not see.
   */
  page(
    cursor: unknown,
    pageSize: number,
    method: string,
    keyOf: (item: Item) => string,
    shown?: (item: Item) => boolean,
  ): CatalogPage<Item['descriptor']> {
    const items = shown === undefined ? this.list() : this.list().filter(shown);
    let start = 0;
    if (cursor !== undefined) {
      const after = decodeListCursor(cursor, method);
      start = items.findIndex((item) => keyOf(item) > after);
      if (start === -1) start = items.length;
    }
    const slice = items.slice(start, start + pageSize);
    const last = slice.at(-1);
    const page: CatalogPage<Item['descriptor']> = { items: slice.map((item) => item.descriptor) };
    if (start + pageSize < items.length && last !== undefined) page.nextCursor = encodeListCursor(keyOf(last));
    return page;
  }

  #changed(): void {
    this.#listed = undefined;
    this.#onChange();
  }
}
