import pg, { type ClientBase, type FieldDef } from 'pg';
import { fixedStatementsMessages, statementMessages, syncMessage } from './postgres-wire-messages.ts';

/** pg's row decoder (`pg.Result`), which its type definitions leave out. */
export interface RowDecoder {
  fields: FieldDef[];
  addFields(fields: FieldDef[]): void;
  parseRow(values: unknown[]): unknown;
}

const Result = (pg as unknown as { Result: new (rowMode: 'array', types: TypeParsers) => RowDecoder }).Result;

/** A decoder of rows as arrays, with the given type parsers. */
export function rowDecoder(types: TypeParsers): RowDecoder {
  return new Result('array', types);
}

/** A bound value as text, as the protocol sends it; `params` only ever hold strings, numbers, booleans and null. */
export function boundText(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

/** The part of pg's connection this call writes to; pg passes it to `submit`. */
export interface Connection {
  stream: { write(buffer: Buffer): boolean };
}

/** The messages of each fixed list of statements (what runs before and after), built once. */
const fixedMessages = new WeakMap<readonly string[], Buffer>();

export function messagesOf(texts: readonly string[]): Buffer {
  let messages = fixedMessages.get(texts);
  if (messages === undefined) {
    messages = fixedStatementsMessages(texts);
    fixedMessages.set(texts, messages);
  }
  return messages;
}

/** One call: the statements before, the statement with its values and row cap, and the statements after. */
interface StatementCallParts {
  before: readonly string[];
  text: string;
  values: readonly unknown[];
  rows: number;
  after: readonly string[];
}

/** What one call to the server brought back. */
export interface StatementCallResult {
  fields: FieldDef[];
  rows: unknown[][];
  /** The statement had more rows than were asked for. */
  suspended: boolean;
  /** Every statement after it ran too: the transaction was rolled back and the session reset. */
  finished: boolean;
}

export interface TypeParsers {
  getTypeParser(oid: number): (text: string) => unknown;
}

/**
 * One statement, with what runs before it (begin the transaction, set its
 * limits) and after it (roll back, reset the session), sent to the server at
 * once through the extended protocol and answered in one round trip: each
 * part is parsed on its own, so none can hold a second statement, and the
 * statement's rows stop at `rows` (the portal is suspended, then rolled back
 * with its transaction). After an error the server skips the rest up to the
 * Sync, so `finished` is false and the caller resets the session itself.
 */
class StatementCall {
  readonly #before: readonly string[];
  readonly #text: string;
  readonly #values: (string | null)[];
  readonly #rows: number;
  readonly #after: readonly string[];
  readonly #result: RowDecoder;
  readonly #done: (error: Error | undefined, result: StatementCallResult) => void;
  readonly #collected: unknown[][] = [];
  #step = 0;
  #suspended = false;
  #error: Error | undefined;
  #settled = false;

  constructor(
    parts: StatementCallParts,
    types: TypeParsers,
    done: (error: Error | undefined, result: StatementCallResult) => void,
  ) {
    this.#before = parts.before;
    this.#text = parts.text;
    this.#values = parts.values.map(boundText);
    this.#rows = parts.rows;
    this.#after = parts.after;
    this.#result = rowDecoder(types);
    this.#done = done;
  }

  submit(connection: Connection): void {
    connection.stream.write(
      Buffer.concat([
        messagesOf(this.#before),
        statementMessages(this.#text, this.#values, { rows: this.#rows, describe: true }),
        messagesOf(this.#after),
        syncMessage,
      ]),
    );
  }

  get #inStatement(): boolean {
    return this.#step === this.#before.length;
  }

  handleRowDescription(message: { fields: FieldDef[] }): void {
    if (this.#inStatement) this.#result.addFields(message.fields);
  }

  handleDataRow(message: { fields: unknown[] }): void {
    if (this.#inStatement) this.#collected.push(this.#result.parseRow(message.fields) as unknown[]);
  }

  handlePortalSuspended(): void {
    if (this.#inStatement) this.#suspended = true;
    this.#step++;
  }

  handleCommandComplete(): void {
    this.#step++;
  }

  handleEmptyQuery(): void {
    this.#step++;
  }

  /** pg hands the ReadyForQuery after an error to no one, so an error ends the call here. */
  handleError(error: Error): void {
    this.#error ??= error;
    this.handleReadyForQuery();
  }

  handleReadyForQuery(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#done(this.#error, {
      fields: this.#result.fields,
      rows: this.#collected,
      suspended: this.#suspended,
      finished: this.#error === undefined && this.#step === this.#before.length + 1 + this.#after.length,
    });
  }

  // pg calls these on every submittable; a statement call has no COPY and no callback of its own.
  handleCopyInResponse(): void {}
  handleCopyData(): void {}
}

/** Runs a statement between `before` and `after` in one round trip; see `StatementCall`. */
export function callStatement(
  client: ClientBase,
  parts: StatementCallParts,
  types: TypeParsers,
): Promise<StatementCallResult> {
  return new Promise((resolve, reject) => {
    client.query(
      new StatementCall(parts, types, (error, result) =>
        error === undefined ? resolve(result) : reject(error),
      ) as never,
    );
  });
}
