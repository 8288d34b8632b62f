import type { GuardedPath, PathGuard } from '@toolshed/guards';
import type { AttachmentSink } from './parsed-message.ts';

// Bytes gathered before each append: few enough appends for a large file, little enough held at a time.
const flushBytes = 1024 * 1024;

/** An attachment written to a hidden file in the save directory as it streams in, then given its name. */
export interface PartialAttachmentFile {
  sink: AttachmentSink;
  /** Bytes written (at most the cap: what comes after is not written). */
  readonly written: number;
  /** Writes what is still gathered; creates the file when the attachment was empty. */
  finish(): Promise<void>;
  /** Gives the file its name; refused, atomically, when the name exists. */
  moveTo(target: GuardedPath): Promise<void>;
  /** Removes the file unless it was given its name. */
  discard(): Promise<void>;
}

/**
 * A file under a random hidden name in the save directory, written through
 * the path guard by appends of about a megabyte, so that an attachment of
 * any size passes through a megabyte of memory; at most `cap` bytes are
 * written. Moved to its real name only once whole, never over a file.
 */
export async function createPartialAttachmentFile(guard: PathGuard, cap: number): Promise<PartialAttachmentFile> {
  const { randomBytes } = process.getBuiltinModule('node:crypto');
  const partial = await guard.resolve(`.toolshed-${randomBytes(8).toString('hex')}.partial`, { access: 'write' });
  let gathered: Buffer[] = [];
  let gatheredBytes = 0;
  let written = 0;
  let created = false;
  let moved = false;

  async function flush(): Promise<void> {
    if (gatheredBytes === 0 && created) return;
    const bytes = Buffer.concat(gathered, gatheredBytes);
    gathered = [];
    gatheredBytes = 0;
    await guard.appendFile(partial, bytes, { maxFileBytes: cap });
    created = true;
  }

  return {
    get written() {
      return written;
    },
    sink: {
      async write(chunk) {
        if (written + chunk.length > cap) {
          written = cap + 1;
          return;
        }
        written += chunk.length;
        gathered.push(chunk);
        gatheredBytes += chunk.length;
        if (gatheredBytes >= flushBytes) await flush();
      },
    },
    finish: flush,
    async moveTo(target) {
      await guard.move(partial, target);
      moved = true;
    },
    async discard() {
      if (moved || !created) return;
      await guard.remove(partial).catch(() => undefined);
    },
  };
}
