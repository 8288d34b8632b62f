import type { ClientBase, FieldDef } from 'pg';
import {
  boundText,
  type Connection,
  messagesOf,
  type RowDecoder,
  rowDecoder,
  type TypeParsers,
} from './postgres-statement-call.ts';
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

/** Where the streamed rows go. */
export interface RowStreamConsumer {
  /** The result's columns, before any row. */
  onFields(fields: readonly FieldDef[]): void;
  /** One batch, decoded; the next is fetched once what this returns settles. Throwing stops the stream. */
  onRows(rows: unknown[][]): Promise<void> | void;
  /** Asked before each fetch: a stopped stream fetches nothing more and ends its transaction. */
  stopped(): boolean;
}

/**
 * One statement's rows, a batch at a time, through the extended protocol as
 * a cursor does it: the statement's portal runs `batchRows` rows and is
 * suspended (Execute with a row count, then Flush instead of Sync, so the
 * transaction stays open), the batch is handed over, and only then is the
 * next one asked for — a slow consumer holds the statement where it is,
 * never the server's memory. When the rows end, or the consumer fails or
 * stops, the statements after it (the rollback and the reset) and a Sync
 * end the call. After an error the server skips everything to the Sync,
 * which is then sent if it was not already.
 */
class RowStream {
  readonly #parts: RowStreamParts;
  readonly #values: (string | null)[];
  readonly #decoder: RowDecoder;
  readonly #consumer: RowStreamConsumer;
  readonly #done: (error: Error | undefined, finished: boolean) => void;
  #connection: Connection | undefined;
  #batch: unknown[][] = [];
  #step = 0;
  #synced = false;
  #error: Error | undefined;
  #settled = false;

  constructor(
    parts: RowStreamParts,
    types: TypeParsers,
    consumer: RowStreamConsumer,
    done: (error: Error | undefined, finished: boolean) => void,
  ) {
    this.#parts = parts;
    this.#values = parts.values.map(boundText);
    this.#decoder = rowDecoder(types);
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
    this.#decoder.addFields(message.fields);
    this.#consume(() => this.#consumer.onFields(message.fields));
  }

  handleDataRow(message: { fields: unknown[] }): void {
    if (this.#inStatement) this.#batch.push(this.#decoder.parseRow(message.fields) as unknown[]);
  }

  /** A batch is in: hand it over, then fetch the next or end. */
  handlePortalSuspended(): void {
    const rows = this.#takeBatch();
    this.#consume(async () => {
      await this.#consumer.onRows(rows);
      // The session may have ended meanwhile (an error settled the stream): nothing more is sent then.
      if (this.#settled) return;
      if (this.#error === undefined && !this.#consumer.stopped()) {
        this.#connection?.stream.write(Buffer.concat([executeMessage(this.#parts.batchRows), flushMessage]));
      } else this.#end();
    });
  }

  handleCommandComplete(): void {
    if (!this.#inStatement) {
      this.#step++;
      return;
    }
    // The last batch: the statements after it go out at once, while the rows are written.
    this.#step++;
    const rows = this.#takeBatch();
    this.#end();
    this.#consume(() => this.#consumer.onRows(rows));
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

  #takeBatch(): unknown[][] {
    const rows = this.#batch;
    this.#batch = [];
    return rows;
  }

  /** Runs the consumer; what it throws ends the stream with that error. */
  #consume(work: () => Promise<void> | void): void {
    try {
      const running = work();
      if (running !== undefined) running.catch((error: Error) => this.#fail(error));
    } catch (error) {
      this.#fail(error as Error);
    }
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

  #settle(): void {
    if (this.#settled) return;
    this.#settled = true;
    const finished =
      this.#error === undefined && this.#step === this.#parts.before.length + 1 + this.#parts.after.length;
    this.#done(this.#error, finished);
  }
}

/**
 * Streams one statement's rows into `consumer` (see `RowStream`). Resolves
 * whether the transaction was ended and the session reset, rejects with the
 * first error (the server's, or the consumer's).
 */
export function streamRows(
  client: ClientBase,
  parts: RowStreamParts,
  types: TypeParsers,
  consumer: RowStreamConsumer,
): Promise<boolean> {
  return new Promise((resolve, reject) => {
    client.query(
      new RowStream(parts, types, consumer, (error, finished) =>
        error === undefined ? resolve(finished) : reject(error),
      ) as never,
    );
  });
}
