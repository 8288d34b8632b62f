import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binTelemetryCases } from '@toolshed/mcp-core/testing';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, it } from 'vitest';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let directory: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-telemetry-'));
  const db = new Database(join(directory, 'shop.db'));
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY)');
  db.close();
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe('toolshed-sql with OTEL_* set', () => {
  binTelemetryCases(it, () => ({ bin: [bin, '--db', `shop=${join(directory, 'shop.db')}`] }));
});
