import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { AuditEntry } from '../compose/audit-log.ts';

export interface AuditFilter {
  server?: string | undefined;
  /** Part of the tool's name. */
  tool?: string | undefined;
  outcome?: string | undefined;
  /** ISO times, inclusive. */
  from?: string | undefined;
  to?: string | undefined;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** Lines that pass the filter, in all files. */
  matching: number;
  /** Lines in all files. */
  total: number;
  servers: string[];
}

/** A file's parsed lines, up to `offset` bytes (the end of its last whole line). */
type Parsed = { offset: number; inode: number; entries: AuditEntry[] };

function parseLines(text: string, into: AuditEntry[]): void {
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      into.push(JSON.parse(line) as AuditEntry);
    } catch {
      // A torn line: skipped.
    }
  }
}

function readRange(file: string, start: number, end: number): Buffer {
  const buffer = Buffer.alloc(end - start);
  const fd = openSync(file, 'r');
  try {
    let read = 0;
    while (read < buffer.length) {
      const count = readSync(fd, buffer, read, buffer.length - read, start + read);
      if (count === 0) break;
      read += count;
    }
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads the audit log and its rotated files for the console, newest line
 * first. Each file is parsed once, and then only the lines appended since
 * (the log only grows, until it is rotated to another name), so paging and
 * filtering a large log costs a scan of parsed lines, not a read of the
 * disk. A line that is not JSON (a log cut by a crash) is skipped.
 */
export class AuditReader {
  readonly #cache = new Map<string, Parsed>();

  #files(path: string): string[] {
    const name = basename(path);
    let names: string[];
    try {
      names = readdirSync(dirname(path));
    } catch {
      return [];
    }
    const rotated = names
      .map((candidate) => /^(.*)\.(\d+)$/.exec(candidate))
      .filter((match): match is RegExpExecArray => match !== null && match[1] === name)
      .sort((a, b) => Number(b[2]) - Number(a[2]))
      .map((match) => join(dirname(path), match[0]));
    return [...rotated, ...(names.includes(name) ? [path] : [])];
  }

  #entriesOf(file: string): AuditEntry[] {
    let stats: { size: number; ino: number };
    try {
      stats = statSync(file);
    } catch {
      return [];
    }
    let cached = this.#cache.get(file);
    // Another file under the name (rotation), or a shorter one: read from the start.
    if (cached === undefined || cached.inode !== stats.ino || stats.size < cached.offset) {
      cached = { offset: 0, inode: stats.ino, entries: [] };
      this.#cache.set(file, cached);
    }
    if (stats.size > cached.offset) {
      // Only what was appended since the last read, up to its last whole line.
      const bytes = readRange(file, cached.offset, stats.size);
      const end = bytes.lastIndexOf(0x0a) + 1;
      parseLines(bytes.subarray(0, end).toString('utf8'), cached.entries);
      cached.offset += end;
    }
    return cached.entries;
  }

  /** One page of the log, newest first. */
  read(path: string, filter: AuditFilter, page: number, pageSize: number): AuditPage {
    const files = this.#files(path);
    for (const cached of this.#cache.keys()) if (!files.includes(cached)) this.#cache.delete(cached);
    const all = files.flatMap((file) => this.#entriesOf(file));
    const servers = [...new Set(all.map((entry) => entry.server))].sort();
    const tool = filter.tool?.toLowerCase();
    const matches = (entry: AuditEntry) =>
      (filter.server === undefined || entry.server === filter.server) &&
      (tool === undefined || entry.tool.toLowerCase().includes(tool)) &&
      (filter.outcome === undefined || entry.outcome === filter.outcome) &&
      (filter.from === undefined || entry.time >= filter.from) &&
      (filter.to === undefined || entry.time <= filter.to);
    const entries: AuditEntry[] = [];
    let matching = 0;
    const start = page * pageSize;
    for (let index = all.length - 1; index >= 0; index--) {
      const entry = all[index] as AuditEntry;
      if (!matches(entry)) continue;
      if (matching >= start && matching < start + pageSize) entries.push(entry);
      matching += 1;
    }
    return { entries, matching, total: all.length, servers };
  }
}
