/** Some files of one directory of a tree, to be copied into the matching directory of the copy. */
export interface FileBatch {
  readonly id: number;
  /** The source directory: its descriptor's link (`/proc/self/fd/N`), or its real path where the kernel has none. */
  readonly from: string;
  /** The destination directory, made by this copy and verified, named the same way. */
  readonly to: string;
  readonly names: readonly string[];
}

/** What copying a batch did. */
export interface FileBatchResult {
  readonly id: number;
  readonly files: number;
  readonly bytes: number;
  /** Names that were no regular file when opened (links, FIFOs, devices, sockets): not copied. */
  readonly skipped: readonly string[];
  /** Regular files over the small-file size, not copied here: the caller copies them through the thread pool. */
  readonly large: readonly string[];
  /** Why the batch stopped, where it did: a system error's code, or `budget` for the byte cap. */
  readonly failure?: { readonly code: string; readonly message: string };
}

export interface SmallFileCopierOptions {
  /** The permission bits new files lose to the umask; `undefined` sets every copy's mode explicitly. */
  readonly umask: number | undefined;
  /** Bytes this copy has taken so far, shared by every thread copying the tree (one BigInt64 of a SharedArrayBuffer). */
  readonly budget: SharedArrayBuffer;
  /** Bytes the whole copy may take. */
  readonly maxBytes: number;
  /** Files up to this size are copied here; larger ones are handed back. */
  readonly smallBytes: number;
}

/**
 * Makes the function that copies a batch of small files: for each, open the source by name through its verified
 * directory with O_NOFOLLOW (a link, swapped in or not, is never opened), fstat it (anything but a regular file is
 * skipped), take its bytes from the shared budget, create the copy by name inside the verified new directory with
 * O_CREAT | O_EXCL | O_NOFOLLOW (an existing name or a planted link is refused, never written through), then one
 * read, one write, the mode where the umask took bits, the times, and close both.
 *
 * It uses nothing from outside its own body, because its source text is also the whole program of the second
 * thread that shares a large tree's copy (see tree-copy-thread.ts): keep it so.
 */
export function createSmallFileCopier(options: SmallFileCopierOptions): (batch: FileBatch) => FileBatchResult {
  const fs = process.getBuiltinModule('node:fs');
  const { constants } = fs;
  const openSource = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const createCopy = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  // Set-user-ID and set-group-ID bits are dropped, as cp drops them: the copy belongs to this process's user.
  const keptModeBits = 0o1777;
  const taken = new BigInt64Array(options.budget);
  const maxBytes = BigInt(Math.min(options.maxBytes, Number.MAX_SAFE_INTEGER));
  let buffer = Buffer.allocUnsafe(64 * 1024);

  const copyOne = (batch: FileBatch, name: string, source: number, stats: import('node:fs').Stats): void => {
    const mode = stats.mode & keptModeBits;
    const to = `${batch.to}/${name}`;
    const copy = fs.openSync(to, createCopy, mode & 0o777);
    try {
      let length = 0;
      while (length < stats.size) {
        const read = fs.readSync(source, buffer, length, stats.size - length, length);
        if (read === 0) break;
        length += read;
      }
      for (let written = 0; written < length; ) written += fs.writeSync(copy, buffer, written, length - written);
      // The umask took bits the source has (or the sticky bit, which open does not set): set the mode itself.
      if (options.umask === undefined || (mode & (options.umask | 0o1000)) !== 0) fs.fchmodSync(copy, mode);
      // Kept to the microsecond: Node takes times as floating-point seconds.
      fs.futimesSync(copy, stats.atimeMs / 1000, stats.mtimeMs / 1000);
    } finally {
      fs.closeSync(copy);
    }
    // Where the kernel cannot name descriptors the file was opened by path: the name must still be that file.
    if (!batch.from.startsWith('/proc/self/fd/')) {
      const now = fs.lstatSync(`${batch.from}/${name}`, { throwIfNoEntry: false });
      if (now?.isFile() !== true || now.dev !== stats.dev || now.ino !== stats.ino) {
        fs.unlinkSync(to);
        throw Object.assign(new Error('a file was swapped while it was copied'), { code: 'SWAPPED' });
      }
    }
  };

  return (batch) => {
    let files = 0;
    let bytes = 0;
    const skipped: string[] = [];
    const large: string[] = [];
    const result = (failure?: { code: string; message: string }): FileBatchResult => ({
      id: batch.id,
      files,
      bytes,
      skipped,
      large,
      ...(failure === undefined ? {} : { failure }),
    });
    for (const name of batch.names) {
      let source: number;
      try {
        source = fs.openSync(`${batch.from}/${name}`, openSource);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
        // ELOOP: a link now; ENXIO: a socket.
        if (code === 'ELOOP' || code === 'ENXIO') {
          skipped.push(name);
          continue;
        }
        return result({ code, message: (error as Error).message });
      }
      try {
        const stats = fs.fstatSync(source);
        if (!stats.isFile()) {
          skipped.push(name);
          continue;
        }
        if (stats.size > options.smallBytes) {
          large.push(name);
          continue;
        }
        if (Atomics.add(taken, 0, BigInt(stats.size)) + BigInt(stats.size) > maxBytes) {
          return result({ code: 'budget', message: `it grew past ${options.maxBytes} bytes` });
        }
        if (buffer.length < stats.size) buffer = Buffer.allocUnsafe(options.smallBytes);
        copyOne(batch, name, source, stats);
        files++;
        bytes += stats.size;
      } catch (error) {
        return result({ code: (error as NodeJS.ErrnoException).code ?? 'EIO', message: (error as Error).message });
      } finally {
        fs.closeSync(source);
      }
    }
    return result();
  };
}
