import { type AuditRowOperation, auditRowStatement, wholeRowOf } from '../sql/audit-rows.ts';
import { processRuns, processStart } from './process-identity.ts';
import type { SqliteExecutor } from './sqlite-executor.ts';

const { closeSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, unlinkSync, writeSync } =
  process.getBuiltinModule('node:fs');
const { join } = process.getBuiltinModule('node:path');
const { hostname } = process.getBuiltinModule('node:os');

/** How long recorded rows wait to be applied to the database, at most; a read applies them at once. */
const applyEveryMs = 100;
/** Rows that are applied at once, without waiting. */
const applyAtRows = 2048;

/**
 * The embedded store's audit rows are made durable by an append to a
 * journal file (a `write`: the data is the kernel's once it returns, so a
 * process killed at any moment keeps it, as a WAL commit with
 * `synchronous=NORMAL` does). The rows recorded in one turn of the event
 * loop share one `write`, made before the loop waits again, so calls that
 * arrive together pay one system call between them. They are applied to the database in
 * batches, one commit for many rows, where a commit per row measured 41–71 µs
 * here. A batch is applied in one transaction that never yields to the event
 * loop, and the journal is emptied right after it, so no row recorded
 * meanwhile can be lost with it. A process that died leaves its journal;
 * the next sweep by any process on the same database replays them (each
 * row's start is inserted unless present, its end written again: replaying
 * twice changes nothing) before ending what the process left.
 */
export class AuditJournal {
  readonly #directory: string;
  readonly #sql: SqliteExecutor;
  readonly #file: string;
  #fd: number | undefined;
  #pending: AuditRowOperation[] = [];
  /** Where each call whose start is still pending is in `#pending`, by id. */
  #pendingStarts = new Map<unknown, number>();
  #timer: NodeJS.Timeout | undefined;
  /** Lines recorded since the last write, and the callers waiting for that write. */
  #unwritten: string[] = [];
  #written: PromiseWithResolvers<void> | undefined;

  constructor(databasePath: string, sql: SqliteExecutor) {
    this.#directory = `${databasePath}-audit`;
    this.#sql = sql;
    this.#file = join(this.#directory, `${hostname()}_${process.pid}_${processStart(process.pid) ?? 'unknown'}.log`);
    mkdirSync(this.#directory, { recursive: true, mode: 0o700 });
  }

  /**
   * Makes one row durable: resolves once its line is written, at the end of
   * this turn of the event loop. It reaches the database within a few
   * milliseconds, or at the next read.
   */
  record(operation: AuditRowOperation): Promise<void> {
    this.#unwritten.push(JSON.stringify(operation));
    if (this.#written === undefined) {
      this.#written = Promise.withResolvers<void>();
      setImmediate(() => this.#write());
    }
    const written = this.#written.promise;
    const [kind, row] = operation;
    // A call that ends before its start was applied is written as one row: one statement instead of two.
    const started = kind === 'complete' ? this.#pendingStarts.get(row[5]) : undefined;
    const start = started === undefined ? undefined : this.#pending[started];
    if (started !== undefined && start !== undefined) {
      this.#pending[started] = ['whole', wholeRowOf(start[1], row)];
      this.#pendingStarts.delete(row[5]);
    } else {
      if (kind === 'start') this.#pendingStarts.set(row[0], this.#pending.length);
      this.#pending.push(operation);
    }
    if (this.#pending.length >= applyAtRows) void this.apply().catch(() => {});
    else this.#timer ??= setTimeout(() => void this.apply().catch(() => {}), applyEveryMs).unref();
    return written;
  }

  /** Writes the lines recorded so far in one append and tells their callers. */
  #write(): void {
    const waiting = this.#written;
    const lines = this.#unwritten;
    this.#written = undefined;
    this.#unwritten = [];
    if (waiting === undefined) return;
    try {
      this.#fd ??= openSync(this.#file, 'a', 0o600);
      writeSync(this.#fd, `${lines.join('\n')}\n`);
      waiting.resolve();
    } catch (error) {
      waiting.reject(error);
    }
  }

  /** Applies every row recorded so far to the database. */
  async apply(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // Waits for no other transaction, then applies and empties the journal without yielding in between.
    await this.#sql.transactionNow(
      (run) => {
        for (const operation of this.#pending) apply(run, operation);
      },
      () => {
        this.#pending = [];
        this.#pendingStarts = new Map();
        if (this.#fd !== undefined) ftruncateSync(this.#fd, 0);
      },
    );
  }

  /** Applies what is left and removes the journal. */
  async close(): Promise<void> {
    this.#write();
    await this.apply();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    try {
      unlinkSync(this.#file);
    } catch {
      // Never written.
    }
  }

  /** Replays the journals of processes that are gone (they died before applying them), then removes them. */
  static async replayOrphans(databasePath: string, sql: SqliteExecutor): Promise<void> {
    const directory = `${databasePath}-audit`;
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      return;
    }
    const orphans = names
      .map((name) => ({ name, match: /^(.+)_(\d+)_([^_.]+)\.log$/.exec(name) }))
      .filter(({ match }) => match !== null && match[1] === hostname())
      .filter(({ match }) => !processRuns(Number(match?.[2]), match?.[3] === 'unknown' ? null : (match?.[3] ?? null)));
    for (const { name } of orphans) {
      const path = join(directory, name);
      const operations: AuditRowOperation[] = [];
      for (const line of readFileSync(path, 'utf8').split('\n')) {
        try {
          if (line !== '') operations.push(JSON.parse(line) as AuditRowOperation);
        } catch {
          // The last line of a process killed in the middle of writing it: the row never was.
        }
      }
      await sql.transactionNow((run) => {
        for (const operation of operations) apply(run, operation);
      });
      unlinkSync(path);
    }
  }
}

function apply(run: (statement: string, parameters: unknown[]) => void, operation: AuditRowOperation): void {
  const { statement, parameters } = auditRowStatement(operation);
  run(statement, parameters);
}
