import type pg from 'pg';

/** The first half of every advisory lock the store takes ("Tool"), so that they do not meet an application's own. */
export const lockNamespace = 0x546f_6f6c;
/** The second half of the sweeper's election lock; replicas' own keys are never 0. */
const sweeperLockKey = 0;

export interface ReplicaConnectionOptions {
  connect(): Promise<pg.Client>;
  /** This replica's liveness lock. */
  lockKey: number;
  /** What each channel's NOTIFY is handed to, by channel name: the connection LISTENs on each. */
  channels: Readonly<Record<string, (payload: string) => void>>;
  /** Called each time the connection is up again (to register the replica anew). */
  onUp(): Promise<void>;
  /** The first wait before connecting again; doubles up to 5 s. */
  retryDelayMs?: number;
}

/**
 * The one connection a replica keeps to itself: it holds the replica's
 * advisory lock for as long as the replica lives (PostgreSQL releases it
 * when the connection ends, which is how the others learn of a death), it
 * LISTENs for approvals decided and tasks changed or signalled anywhere,
 * and it may hold the sweeper's election lock. When it drops, it is made
 * again, with its locks and listens, until the store is closed.
 */
export class ReplicaConnection {
  readonly #options: ReplicaConnectionOptions;
  #client: pg.Client | undefined;
  #leads = false;
  #closed = false;
  #lastError: string | undefined;
  #reconnecting: Promise<void> | undefined;

  constructor(options: ReplicaConnectionOptions) {
    this.#options = options;
  }

  /** Connects the first time; rejects when the store cannot be reached at all. */
  async open(): Promise<void> {
    await this.#connect();
  }

  get up(): boolean {
    return this.#client !== undefined;
  }

  get lastError(): string | undefined {
    return this.#lastError;
  }

  async #connect(): Promise<void> {
    const client = await this.#options.connect();
    client.on('error', (error) => {
      this.#lastError = error.message;
    });
    client.on('notification', (message) => {
      // Only the channels listened to are ever notified here.
      const receive = this.#options.channels[message.channel];
      if (receive !== undefined && message.payload !== undefined) receive(message.payload);
    });
    client.once('end', () => this.#lost(client));
    try {
      await client.query('SELECT pg_advisory_lock($1, $2)', [lockNamespace, this.#options.lockKey]);
      for (const channel of Object.keys(this.#options.channels)) await client.query(`LISTEN ${channel}`);
      await this.#options.onUp();
    } catch (error) {
      await client.end().catch(() => {});
      throw error;
    }
    // Closed while this connection was being made: it must not outlive the store, holding the replica's lock.
    if (this.#closed) {
      await client.end().catch(() => {});
      return;
    }
    this.#client = client;
    this.#lastError = undefined;
  }

  #lost(client: pg.Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    this.#leads = false;
    if (this.#closed) return;
    this.#reconnecting ??= this.#reconnect().finally(() => {
      this.#reconnecting = undefined;
    });
  }

  async #reconnect(): Promise<void> {
    let delay = this.#options.retryDelayMs ?? 250;
    while (!this.#closed && this.#client === undefined) {
      await new Promise((resolve) => setTimeout(resolve, delay).unref());
      if (this.#closed) return;
      try {
        await this.#connect();
      } catch (error) {
        this.#lastError = (error as Error).message;
        delay = Math.min(delay * 2, 5000);
      }
    }
  }

  /** Whether this replica sweeps: it takes the election lock when free and keeps it while its connection lives. */
  async leads(): Promise<boolean> {
    const client = this.#client;
    if (client === undefined) return false;
    if (!this.#leads) {
      const result = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS taken', [
        lockNamespace,
        sweeperLockKey,
      ]);
      this.#leads = result.rows[0]?.taken === true;
    }
    return this.#leads;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#reconnecting?.catch(() => {});
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }
}
