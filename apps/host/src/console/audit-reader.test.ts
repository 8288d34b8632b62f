import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditReader } from './audit-reader.ts';

const directory = mkdtempSync(join(tmpdir(), 'toolshed-audit-reader-'));
const path = join(directory, 'audit.jsonl');
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function line(index: number, server = 'files', outcome = 'ok'): string {
  return `${JSON.stringify({ time: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString(), caller: 'c', server, tool: `${server}_t${index % 2}`, upstream_tool: 't', arguments_sha256: '', approval: 'not_required', duration_ms: 1, outcome })}\n`;
}

describe('AuditReader', () => {
  it('reads the log and its rotated files newest first, follows appends and rotation, skips torn lines', () => {
    const reader = new AuditReader();
    writeFileSync(`${path}.2`, line(0) + line(1));
    writeFileSync(`${path}.1`, `${line(2)}{"torn\n${line(3, 'sql', 'error')}`);
    writeFileSync(path, line(4));
    const first = reader.read(path, {}, 0, 10);
    expect(first.entries.map((entry) => entry.time.slice(-6, -5))).toEqual(['4', '3', '2', '1', '0']);
    expect(first.servers).toEqual(['files', 'sql']);
    appendFileSync(path, `${line(5)}{"half a li`);
    expect(reader.read(path, {}, 0, 1).entries[0]?.time).toMatch(/:05\./);
    appendFileSync(path, `ne"}\n${line(6)}`);
    expect(reader.read(path, {}, 0, 10).total).toBe(7);
    renameSync(path, `${path}.3`);
    writeFileSync(path, line(7));
    expect(reader.read(path, {}, 0, 10).total).toBe(8);
    expect(reader.read(path, { server: 'sql' }, 0, 10).matching).toBe(1);
    expect(reader.read(path, { outcome: 'error' }, 0, 10).entries[0]?.server).toBe('sql');
    expect(reader.read(path, { tool: 'T1' }, 0, 10).matching).toBe(4);
    const window = reader.read(path, { from: '2026-01-01T00:00:02.000Z', to: '2026-01-01T00:00:04.999Z' }, 0, 10);
    expect(window.matching).toBe(3);
    const second = reader.read(path, {}, 1, 3);
    expect(second.entries).toHaveLength(3);
    expect(second.matching).toBe(8);
  });
});
