import { type BigIntStats, constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { QueryFailure } from './query-failure.ts';
import type { ExportFileTarget } from './query-messages.ts';

/**
 * How an export's rows reach its temporary file. The file exists already
 * (the server made it, new, inside the export directory); whoever writes it
 * opens it by path, never creating anything and never following a link, and
 * checks that what it opened is that file.
 */

/** Opened for writing only: no O_CREAT (nothing new can appear), no link followed at the last name. */
export const exportWriteFlags: number = constants.O_WRONLY | constants.O_NOFOLLOW;

/** Refuses a file that is not the one the server made (a name swapped for another file since). */
export function checkExportTarget(stats: BigIntStats, target: ExportFileTarget): void {
  if (String(stats.dev) !== target.device || String(stats.ino) !== target.inode || !stats.isFile()) {
    throw new QueryFailure('export_failed', 'The export file was replaced while the export ran; nothing was kept.');
  }
}

/** A write that failed, in words: the disk is full, say. */
export function exportWriteFailure(error: unknown): QueryFailure {
  if (error instanceof QueryFailure) return error;
  const { code, message } = error as NodeJS.ErrnoException;
  const reason = code === 'ENOSPC' ? 'no space is left on the device' : (message ?? String(error));
  return new QueryFailure('export_failed', `The export file could not be written (${reason}); nothing was kept.`);
}

/** Text gathered up to this many characters goes out in one write. */
const chunkCharacters = 256 * 1024;
/** Past this many bytes handed to writes and not yet written, the producer should wait (`drained`). */
const maxBytesInFlight = 4 * 1024 * 1024;

/**
 * The server's writer of an export file (PostgreSQL and MySQL/MariaDB rows
 * arrive in the server's process): text is gathered into large writes that
 * run one after another off the event loop, and `congested` tells the
 * producer to stop fetching until `drained`, so a fast database and a slow
 * disk never fill the server's memory.
 */
export class ExportOutput {
  readonly #handle: FileHandle;
  readonly #counted: (bytes: number) => void;
  // Gathered by concatenation: V8 keeps it as a rope and flattens it once, several times faster than an array join.
  #chunk = '';
  #writes: Promise<void> = Promise.resolve();
  #bytesInFlight = 0;
  #failure: QueryFailure | undefined;

  private constructor(handle: FileHandle, counted: (bytes: number) => void) {
    this.#handle = handle;
    this.#counted = counted;
  }

  /**
   * Opens the export's file; `counted` hears the size of every write before
   * it is handed out, and may throw (a cap) to stop it.
   */
  static async open(target: ExportFileTarget, counted: (bytes: number) => void): Promise<ExportOutput> {
    const { open } = process.getBuiltinModule('node:fs/promises');
    let handle: FileHandle;
    try {
      handle = await open(target.path, exportWriteFlags);
    } catch (error) {
      throw exportWriteFailure(error);
    }
    try {
      checkExportTarget(await handle.stat({ bigint: true }), target);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new ExportOutput(handle, counted);
  }

  /** Takes text to write; throws what `counted` throws. */
  write(text: string): void {
    this.#chunk += text;
    if (this.#chunk.length >= chunkCharacters) this.#flush();
  }

  get congested(): boolean {
    return this.#bytesInFlight >= maxBytesInFlight;
  }

  /** Resolves when every write handed out so far is done; rejects with the first that failed. */
  async drained(): Promise<void> {
    await this.#writes;
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Writes what is left, flushes it to the disk and closes the file. */
  async finish(): Promise<void> {
    try {
      this.#flush();
      await this.drained();
      await this.#handle.datasync();
    } catch (error) {
      await this.#handle.close().catch(() => {});
      throw exportWriteFailure(error);
    }
    await this.#handle.close();
  }

  /** Stops writing and closes the file, whatever state it is in: the server removes it. */
  async abandon(): Promise<void> {
    this.#chunk = '';
    await this.#writes;
    await this.#handle.close().catch(() => {});
  }

  #flush(): void {
    if (this.#chunk === '') return;
    const buffer = Buffer.from(this.#chunk);
    this.#chunk = '';
    this.#counted(buffer.length);
    this.#bytesInFlight += buffer.length;
    this.#writes = this.#writes.then(async () => {
      try {
        // A write may take fewer bytes than it was given; the rest follows it.
        for (let offset = 0; offset < buffer.length && this.#failure === undefined; ) {
          offset += (await this.#handle.write(buffer, offset, buffer.length - offset, null)).bytesWritten;
        }
      } catch (error) {
        this.#failure = exportWriteFailure(error);
      } finally {
        this.#bytesInFlight -= buffer.length;
      }
    });
  }
}
