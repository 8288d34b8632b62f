import type { LRUCache } from 'lru-cache';
import { isTimeLimitReason } from './call-time-limit.ts';

/** What a cached load gives back: the value and how fresh it is. */
export interface CachedValue<Value> {
  value: Value;
  /** When the upstream produced it (ms since the epoch). */
  fetchedAt: number;
  /** Answered from memory, no upstream request. */
  cacheHit: boolean;
  /** Past its time to live, served because the upstream failed; `error` says how. */
  stale: boolean;
  error?: Error | undefined;
}

export interface CacheLoad<Value> {
  value: Value;
  /** What the entry costs against the cache's byte budget. */
  bytes: number;
}

export interface ResponseCacheOptions {
  /** Milliseconds past its time to live an entry may still be served when loading fails. */
  maxStaleMs: number;
  /** Total bytes of entries kept; the least recently used go first. */
  maxBytes: number;
  now?: () => number;
}

interface Entry {
  value: unknown;
  bytes: number;
  fetchedAt: number;
  expiresAt: number;
}

interface Flight {
  promise: Promise<CacheLoad<unknown>>;
  controller: AbortController;
  waiting: number;
}

/**
 * Upstream answers in memory, each with its own time to live, with three
 * properties the tools rely on: calls for the same key while one is loading
 * share that load (a hundred callers, one request); a caller that cancels
 * stops waiting, and the load itself is aborted once nobody waits; and when a
 * load fails, an expired entry younger than `maxStaleMs` is served instead,
 * marked stale, rather than an error.
 *
 * The entries live in lru-cache, held to a byte budget. Sharing loads stays
 * here: lru-cache's own `fetch` ties the shared load to the first caller's
 * signal, so one cancelled call would abort the answer every other caller is
 * waiting for.
 */
export class ResponseCache {
  #entries: LRUCache<string, Entry> | undefined;
  #entriesLoading: Promise<LRUCache<string, Entry>> | undefined;
  readonly #flights = new Map<string, Flight>();
  readonly #options: ResponseCacheOptions;
  readonly #now: () => number;

  constructor(options: ResponseCacheOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  async get<Value>(
    key: string,
    ttlMs: number,
    load: (signal: AbortSignal) => Promise<CacheLoad<Value>>,
    signal?: AbortSignal,
  ): Promise<CachedValue<Value>> {
    const entries = this.#entries ?? (await this.#loadEntries());
    // Peeking does not count as a use; only an answer served from the entry does.
    const entry = entries.peek(key);
    const now = this.#now();
    if (entry !== undefined && entry.expiresAt > now) {
      entries.get(key);
      return { value: entry.value as Value, fetchedAt: entry.fetchedAt, cacheHit: true, stale: false };
    }
    try {
      const loaded = await this.#join(key, load as (signal: AbortSignal) => Promise<CacheLoad<unknown>>, signal);
      const fetchedAt = this.#now();
      this.#store(entries, key, { value: loaded.value, bytes: loaded.bytes, fetchedAt, expiresAt: fetchedAt + ttlMs });
      return { value: loaded.value as Value, fetchedAt, cacheHit: false, stale: false };
    } catch (error) {
      // A caller that cancelled wants nothing; one whose time ran out still gets a stale answer when there is one.
      if (signal?.aborted && !isTimeLimitReason(signal.reason)) throw error;
      const kept = entries.peek(key);
      if (kept !== undefined && kept.expiresAt + this.#options.maxStaleMs > this.#now() && error instanceof Error) {
        return { value: kept.value as Value, fetchedAt: kept.fetchedAt, cacheHit: true, stale: true, error };
      }
      throw error;
    }
  }

  /** Entries and bytes held, for tests and diagnostics. */
  get size(): { entries: number; bytes: number } {
    return { entries: this.#entries?.size ?? 0, bytes: this.#entries?.calculatedSize ?? 0 };
  }

  /**
   * lru-cache is loaded on the first lookup, not at start: evaluating it
   * reads `performance`, which loads node:perf_hooks, and a server that is
   * only listed never looks anything up.
   */
  #loadEntries(): Promise<LRUCache<string, Entry>> {
    this.#entriesLoading ??= import('lru-cache').then(({ LRUCache }) => {
      // Expired entries stay until the budget pushes them out: they are what a failed load falls back on.
      this.#entries = new LRUCache<string, Entry>({
        maxSize: this.#options.maxBytes,
        sizeCalculation: (entry) => Math.max(1, entry.bytes),
      });
      return this.#entries;
    });
    return this.#entriesLoading;
  }

  #join(
    key: string,
    load: (signal: AbortSignal) => Promise<CacheLoad<unknown>>,
    signal: AbortSignal | undefined,
  ): Promise<CacheLoad<unknown>> {
    let flight = this.#flights.get(key);
    if (flight === undefined) {
      const controller = new AbortController();
      const started: Flight = { promise: load(controller.signal), controller, waiting: 0 };
      flight = started;
      this.#flights.set(key, started);
      const settle = () => {
        if (this.#flights.get(key) === started) this.#flights.delete(key);
      };
      started.promise.then(settle, settle);
    }
    const joined = flight;
    joined.waiting++;
    if (signal === undefined) return joined.promise;
    return new Promise((resolve, reject) => {
      const leave = () => {
        joined.waiting--;
        if (joined.waiting === 0) {
          joined.controller.abort(signal.reason);
          if (this.#flights.get(key) === joined) this.#flights.delete(key);
        }
        reject(signal.reason);
      };
      if (signal.aborted) return leave();
      signal.addEventListener('abort', leave, { once: true });
      joined.promise.then(
        (value) => {
          signal.removeEventListener('abort', leave);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', leave);
          reject(error);
        },
      );
    });
  }

  #store(entries: LRUCache<string, Entry>, key: string, entry: Entry): void {
    // One larger than the whole budget is not kept (and drops what was kept under its key).
    if (entry.bytes > this.#options.maxBytes) entries.delete(key);
    else entries.set(key, entry);
  }
}
