import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type AuditEntry, AuditLog, argumentsDigest, redactSecrets } from './audit-log.ts';

const directory = mkdtempSync(join(tmpdir(), 'toolshed-audit-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const entry = (error?: string): AuditEntry => ({
  id: 'call-1',
  time: '2026-11-22T00:00:00.000Z',
  caller: 'test/1',
  server: 's',
  tool: 's_t',
  upstream_tool: 't',
  arguments_sha256: argumentsDigest({ b: 1, a: 2 }),
  approval: 'not_required',
  duration_ms: 1,
  outcome: error === undefined ? 'ok' : 'error',
  ...(error === undefined ? {} : { error }),
});

describe('AuditLog', () => {
  it('appends one JSON line per entry, owner-only, and rotates by size keeping the configured files', () => {
    const path = join(directory, 'logs', 'audit.jsonl');
    const log = new AuditLog({ path, maxBytes: 2048, files: 2 });
    for (let index = 0; index < 40; index++) log.write(entry());
    log.close();
    expect(readdirSync(join(directory, 'logs')).sort()).toEqual(['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2']);
    for (const name of ['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2']) {
      const text = readFileSync(join(directory, 'logs', name), 'utf8');
      expect(text.length).toBeLessThanOrEqual(2048);
      for (const line of text.trim().split('\n')) expect(JSON.parse(line)).toMatchObject({ tool: 's_t' });
    }
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('digests arguments independently of key order', () => {
    expect(argumentsDigest({ a: 2, b: 1 })).toBe(argumentsDigest({ b: 1, a: 2 }));
    expect(argumentsDigest({ a: 2 })).not.toBe(argumentsDigest({ a: 3 }));
  });

  it.each([
    ['Authorization: Bearer abcdef1234567890xyz', 'abcdef1234567890xyz', /Authorization: \[redacted\]/],
    ['upstream said password=hunter22 was wrong', 'hunter22', /password=\[redacted\]/],
    ['{"api_key": "sk-live-0123456789abcdef"}', 'sk-live-0123456789abcdef', /\[redacted\]/],
    ['token ghp_0123456789abcdefghijklmnop leaked', 'ghp_0123456789abcdefghijklmnop', /\[redacted\]/],
    ['AKIAIOSFODNN7EXAMPLE1234 in a message', 'AKIAIOSFODNN7EXAMPLE1234', /\[redacted\]/],
  ])('redacts secrets from error text: %s', (text, secret, replaced) => {
    const redacted = redactSecrets(text);
    expect(redacted).toMatch(replaced);
    if (secret !== 'secret-less') expect(redacted).not.toContain(secret);
    expect(redacted).not.toContain('abcdef1234567890xyz');
  });
});
