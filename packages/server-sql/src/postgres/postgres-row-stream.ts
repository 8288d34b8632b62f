import type { ClientBase, FieldDef } from 'pg';
import { boundText, type Connection, messagesOf } from './postgres-statement-call.ts';
import { executeMessage, flushMessage, statementMessages, syncMessage } from './postgres-wire-messages.ts';

/** One statement to stream, with what runs before it (the transaction and its limits) and after it (the reset). */
export interface RowStreamParts {
  before: readonly string[];
  text: string;
  values: readonly unknown[];
  after: readonly string[];
  /** Rows fetched at a time: the portal is suspended after each batch until the rows are taken. */
  batchRows: number;
}

/** A row as the server sent it: each value's text, or null. */
export type RawRow = readonly (string | null)[];

/** Where the streamed rows go. */
export interface RowStreamConsumer {
  /** The result's columns, before any row. */
  onFields(fields: readonly FieldDef[]): void;
  /**
   * One batch, as the server sent it (the consumer decodes what it needs);
   * once the consumer falls behind, the next is fetched when what this
   * returns settles. Throwing stops the stream.
   */
  onRows(rows: RawRow[]): Promise<void> | void;
  /** Asked before each fetch: a stopped stream fetches nothing more and ends its transaction. */
  stopped(): boolean;
}

/**
 * One statement's rows, a batch at a time, through the extended protocol as
 * a cursor does it: the statement's portal runs `batchRows` rows and is
 * suspended (Execute with a row count, then Flush instead of Sync, so the
 * transaction stays open) until the next batch is asked for. At most one
 * batch is asked for ahead of the one being written, so a slow consumer
 * holds the statement where it is, never the server's memory. When the rows
 * end, or the consumer fails or stops, the statements after it (the
 * rollback and the reset) and a Sync end the call. After an error the
 * server skips everything to the Sync, which is then sent if it was not
 * already.
 */
class RowStream {
  readonly #parts: RowStreamParts;
  readonly #values: (string | null)[];
  readonly #consumer: RowStreamConsumer;
  readonly #done: (error: Error | undefined, finished: boolean) => void;
  #connection: Connection | undefined;
  #batch: RawRow[] = [];
  #step = 0;
  #synced = false;
  #error: Error | undefined;
  #settled = false;
  /** The consumer's work on batches it was handed and has not finished (its writes are behind); else undefined. */
  #behind: Promise<void> | undefined;

  constructor(
    parts: RowStreamParts,
    consumer: RowStreamConsumer,
    done: (error: Error | undefined, finished: boolean) => void,
  ) {
    this.#parts = parts;
    this.#values = parts.values.map(boundText);
    this.#consumer = consumer;
    this.#done = done;
  }

  submit(connection: Connection): void {
    this.#connection = connection;
    connection.stream.write(
      Buffer.concat([
        messagesOf(this.#parts.before),
        statementMessages(this.#parts.text, this.#values, { rows: this.#parts.batchRows, describe: true }),
        flushMessage,
      ]),
    );
  }

  get #inStatement(): boolean {
    return this.#step === this.#parts.before.length;
  }

  handleRowDescription(message: { fields: FieldDef[] }): void {
    if (!this.#inStatement) return;
    this.#afterConsumer(() => this.#consumer.onFields(message.fields));
  }

  handleDataRow(message: { fields: RawRow }): void {
    // Rows that come after the stream ended early (a batch already asked for) are not wanted.
    if (this.#inStatement && !this.#synced) this.#batch.push(message.fields);
  }

  /**
   * A batch is in. While the consumer keeps up, the next batch is asked for
   * before this one is handed over, so that the server makes it while this
   * one is written; once the consumer falls behind, the next is asked for
   * only when it has taken this one.
   */
  handlePortalSuspended(): void {
    const rows = this.#takeBatch();
    if (this.#synced) return;
    const keepingUp = this.#behind === undefined;
    if (keepingUp) this.#fetchOrEnd();
    this.#afterConsumer(() => this.#consumer.onRows(rows));
    if (!keepingUp) this.#afterConsumer(() => this.#fetchOrEnd());
  }

  handleCommandComplete(): void {
    if (!this.#inStatement) {
      this.#step++;
      return;
    }
    // The last batch: the statements after it go out at once, while the rows are written.
    this.#step++;
    const rows = this.#takeBatch();
    const wanted = !this.#synced;
    this.#end();
    if (wanted) this.#afterConsumer(() => this.#consumer.onRows(rows));
  }

  handleEmptyQuery(): void {
    this.handleCommandComplete();
  }

  /** pg gives the ReadyForQuery after an error to no one, so an error ends the stream here. */
  handleError(error: Error): void {
    this.#error ??= error;
    if (!this.#synced) {
      this.#synced = true;
      this.#connection?.stream.write(syncMessage);
    }
    this.#settle();
  }

  handleReadyForQuery(): void {
    this.#settle();
  }

  // pg calls these on every submittable; a row stream has no COPY.
  handleCopyInResponse(): void {}
  handleCopyData(): void {}

  #takeBatch(): RawRow[] {
    const rows = this.#batch;
    this.#batch = [];
    return rows;
  }

  /**
   * Runs consumer work now when the consumer keeps up, else after what it is
   * still taking; what it throws, or rejects with, ends the stream.
   */
  #afterConsumer(work: () => Promise<void> | void): void {
    const run = (): Promise<void> | void => {
      if (this.#error === undefined) return work();
    };
    let running: Promise<void> | void;
    if (this.#behind === undefined) {
      try {
        running = run();
      } catch (error) {
        this.#fail(error as Error);
        return;
      }
    } else running = this.#behind.then(run);
    if (running === undefined) return;
    const tracked: Promise<void> = running
      .catch((error: Error) => this.#fail(error))
      .finally(() => {
        if (this.#behind === tracked) this.#behind = undefined;
      });
    this.#behind = tracked;
  }

  /** Asks for the next batch, or ends the stream when it failed or the consumer stopped it. */
  #fetchOrEnd(): void {
    if (this.#settled || this.#synced) return;
    if (this.#error !== undefined || this.#consumer.stopped()) this.#end();
    else this.#connection?.stream.write(Buffer.concat([executeMessage(this.#parts.batchRows), flushMessage]));
  }

  #fail(error: Error): void {
    this.#error ??= error;
    this.#end();
  }

  /** The statements after the rows (rollback, reset) and the Sync: once, and not after an error's Sync. */
  #end(): void {
    if (this.#synced) return;
    this.#synced = true;
    this.#connection?.stream.write(Buffer.concat([messagesOf(this.#parts.after), syncMessage]));
  }

  /** Ends the stream once the consumer has taken every batch it was handed. */
  #settle(): void {
    if (this.#settled) return;
    this.#settled = true;
    const allRan = this.#step === this.#parts.before.length + 1 + this.#parts.after.length;
    const finish = () => this.#done(this.#error, this.#error === undefined && allRan);
    if (this.#behind === undefined) finish();
    else void this.#behind.then(finish);
  }
}

/**
 * Streams one statement's rows into `consumer` (see `RowStream`). Resolves
 * whether the transaction was ended and the session reset, rejects with the
 * first error (the server's, or the consumer's).
 */
export function streamRows(client: ClientBase, parts: RowStreamParts, consumer: RowStreamConsumer): Promise<boolean> {
  return new Promise((resolve, reject) => {
    client.query(
      new RowStream(parts, consumer, (error, finished) =>
        error === undefined ? resolve(finished) : reject(error),
      ) as never,
    );
  });
}
