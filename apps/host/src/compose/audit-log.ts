import { closeSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditApproval, AuditCompletion, AuditRecord } from '@toolshed/state';

// Taken with getBuiltinModule: imported as an ES module, node:crypto builds a facade of every export at start.
const { hash } = process.getBuiltinModule('node:crypto');

/** One line of the audit log: a call, from whom, to what, decided how, and how it ended — the store's row once it ended. */
export type AuditEntry = Omit<AuditRecord, 'replica' | 'approval' | 'outcome' | 'duration_ms'> & {
  approval: Exclude<AuditApproval, 'pending'>;
  duration_ms: number;
  outcome: AuditCompletion['outcome'];
};

export interface AuditLogOptions {
  path: string;
  /** Size at which the file is rotated: `audit.jsonl` → `audit.jsonl.1` → … */
  maxBytes: number;
  /** Rotated files kept. */
  files: number;
}

const secretPatterns: [RegExp, string][] = [
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]'],
  [
    /\b(api[_-]?key|access[_-]?token|refresh[_-]?token|token|secret|password|passwd|pwd|authorization|cookie)(["']?\s*[:=]\s*["']?)[^\s"',;&]+/gi,
    '$1$2[redacted]',
  ],
  [/\b(sk|pk|ghp|gho|ghs|xox[abp]|AKIA)[-_A-Za-z0-9]{12,}/g, '[redacted]'],
  [/\b[A-Za-z0-9+/_-]{40,}={0,2}/g, '[redacted]'],
];

/** Removes what looks like a credential from text that goes into the log. */
export function redactSecrets(text: string): string {
  let redacted = text;
  for (const [pattern, replacement] of secretPatterns) redacted = redacted.replace(pattern, replacement);
  return redacted.length > 500 ? `${redacted.slice(0, 500)}…` : redacted;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** A digest of a call's arguments: equal arguments give equal digests; the arguments themselves are never logged. */
export function argumentsDigest(args: unknown): string {
  // The one-shot hash: every call's audit line takes one, and it costs half of a Hash object's.
  return hash('sha256', JSON.stringify(canonical(args ?? {})), 'hex');
}

/** Lines held before they are written at once, whatever the event loop is doing. */
const maxBufferedBytes = 64 * 1024;

/**
 * The audit log: JSON Lines, one per tool call, in a file readable by the
 * owner only, rotated by size. Lines are gathered and written together once
 * the current turn of the event loop is done (or sooner when 64 kB are
 * waiting), through one descriptor kept open in append mode, so a call does
 * not wait on the disk and lines stay whole and in order. Closing writes
 * what is left.
 */
export class AuditLog {
  readonly #options: AuditLogOptions;
  #fd: number | undefined;
  #size = 0;
  #pending: string[] = [];
  #pendingBytes = 0;
  #scheduled = false;

  constructor(options: AuditLogOptions) {
    this.#options = options;
    mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
  }

  #open(): number {
    if (this.#fd === undefined) {
      this.#fd = openSync(this.#options.path, 'a', 0o600);
      this.#size = fstatSync(this.#fd).size;
    }
    return this.#fd;
  }

  close(): void {
    this.flush();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  /** Writes every gathered line now. */
  flush(): void {
    this.#scheduled = false;
    if (this.#pending.length === 0) return;
    const bytes = Buffer.from(this.#pending.join(''));
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#open();
    if (this.#size > 0 && this.#size + bytes.length > this.#options.maxBytes) this.#rotate();
    // Opened first: opening a fresh file after a rotation sets the size to 0, which the sum must start from.
    const fd = this.#open();
    this.#size += writeSync(fd, bytes);
  }

  get path(): string {
    return this.#options.path;
  }

  write(entry: AuditEntry): void {
    const line = `${JSON.stringify(entry.error === undefined ? entry : { ...entry, error: redactSecrets(entry.error) })}\n`;
    const lineBytes = Buffer.byteLength(line);
    this.#open();
    // Each line is checked against the size limit on its own, so a rotated file never exceeds it.
    if (this.#size + this.#pendingBytes + lineBytes > this.#options.maxBytes) this.flush();
    this.#pending.push(line);
    this.#pendingBytes += lineBytes;
    if (this.#pendingBytes >= maxBufferedBytes) {
      this.flush();
    } else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  #rotate(): void {
    const { path, files } = this.#options;
    for (let index = files - 1; index >= 1; index--) {
      try {
        renameSync(`${path}.${index}`, `${path}.${index + 1}`);
      } catch {
        // No file at this place yet.
      }
    }
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    renameSync(path, `${path}.1`);
  }
}
