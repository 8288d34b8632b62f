/**
 * Gathers writes made in one turn of the event loop and stores them with
 * one statement, so that 64 calls starting at once cost one round trip, not
 * 64. Each write's promise settles with its batch.
 */
export class WriteBatch<Item> {
  readonly #write: (items: Item[]) => Promise<void>;
  #items: Item[] = [];
  #waiters: { resolve(): void; reject(error: unknown): void }[] = [];
  #scheduled = false;

  constructor(write: (items: Item[]) => Promise<void>) {
    this.#write = write;
  }

  add(item: Item): Promise<void> {
    this.#items.push(item);
    const done = new Promise<void>((resolve, reject) => this.#waiters.push({ resolve, reject }));
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => void this.#flush());
    }
    return done;
  }

  async #flush(): Promise<void> {
    this.#scheduled = false;
    const items = this.#items;
    const waiters = this.#waiters;
    this.#items = [];
    this.#waiters = [];
    try {
      await this.#write(items);
      for (const waiter of waiters) waiter.resolve();
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
    }
  }
}
