/**
 * The same three queries on a 1,000,000-row SQLite file, run by raw
 * better-sqlite3 (prepared once, rows as arrays, JSON-encoded) and through
 * the server over an in-memory MCP connection, in one run. Reports the median
 * and p99 per call and the ratio server ÷ raw.
 *
 *   pnpm --filter @toolshed/server-sql bench
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { connectBareClient } from '@toolshed/mcp-core/testing';
import Database from 'better-sqlite3';
import { createSqlServer } from '../src/index.ts';

const rowCount = 1_000_000;
const dataDirectory = new URL('./.data/', import.meta.url).pathname;
const databasePath = join(dataDirectory, `items-${rowCount}.db`);

function generateDatabase(): void {
  if (existsSync(databasePath)) return;
  mkdirSync(dataDirectory, { recursive: true });
  const partial = `${databasePath}.partial`;
  const db = new Database(partial);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(
    'CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, price REAL NOT NULL, stock INTEGER NOT NULL, created_at TEXT NOT NULL)',
  );
  const insert = db.prepare('INSERT INTO items VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let id = 1; id <= rowCount; id++) {
      insert.run(
        id,
        `item ${id}`,
        `category ${id % 50}`,
        ((id * 37) % 10_000) / 100,
        id % 1000,
        `2026-${String((id % 12) + 1).padStart(2, '0')}-01T00:00:00Z`,
      );
    }
  })();
  db.exec('CREATE INDEX items_by_category ON items (category)');
  db.close();
  renameSync(partial, databasePath);
}

interface Case {
  name: string;
  sql: string;
  params: () => unknown[];
  calls: number;
}

const cases: Case[] = [
  {
    name: 'point lookup',
    sql: 'SELECT * FROM items WHERE id = ?',
    params: () => [1 + Math.floor(Math.random() * rowCount)],
    calls: 4000,
  },
  {
    name: '1,000-row scan',
    sql: 'SELECT * FROM items WHERE id > ? ORDER BY id LIMIT 1000',
    params: () => [Math.floor(Math.random() * (rowCount - 1000))],
    calls: 600,
  },
  {
    name: 'aggregate over 1M rows',
    sql: 'SELECT category, count(*) AS n, avg(price) AS mean_price, sum(stock) AS stock FROM items GROUP BY category',
    params: () => [],
    calls: 12,
  },
];

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

function rawRunner(): (sql: string, params: unknown[]) => string {
  const db = new Database(databasePath, { readonly: true, fileMustExist: true });
  const statements = new Map<string, Database.Statement>();
  return (sql, params) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql).raw(true);
      statements.set(sql, statement);
    }
    const columns = statement.columns().map((column) => ({ name: column.name, type: column.type }));
    return JSON.stringify({ columns, rows: statement.all(...params) });
  };
}

async function serverRunner(): Promise<{
  call: (sql: string, params: unknown[]) => Promise<unknown>;
  close: () => Promise<void>;
}> {
  const server = createSqlServer({ databases: { items: databasePath }, limits: { maxRows: 1000 } });
  const client = await connectBareClient(server);
  return {
    call: (sql, params) => client.callTool('query', { sql, params, max_rows: 1000 }),
    close: () => server.close(),
  };
}

async function measure(calls: number, once: () => unknown): Promise<number[]> {
  for (let warm = 0; warm < Math.min(50, calls); warm++) await once();
  const samples: number[] = [];
  for (let index = 0; index < calls; index++) {
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
  }
  return samples;
}

generateDatabase();
const raw = rawRunner();
const server = await serverRunner();
console.log(
  `node ${process.version}, ${rowCount.toLocaleString('en')} rows, raw better-sqlite3 vs toolshed-sql over an in-memory MCP connection`,
);
console.log('');
console.log('| query | calls | raw p50 ms | server p50 ms | raw p99 ms | server p99 ms | server ÷ raw (p50) |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const benchCase of cases) {
  // Taken in turn, twice each, so that neither side always runs on a warmer machine.
  const rawSamples: number[] = [];
  const serverSamples: number[] = [];
  for (let round = 0; round < 2; round++) {
    rawSamples.push(...(await measure(benchCase.calls / 2, () => raw(benchCase.sql, benchCase.params()))));
    serverSamples.push(...(await measure(benchCase.calls / 2, () => server.call(benchCase.sql, benchCase.params()))));
  }
  const rawMedian = percentile(rawSamples, 0.5);
  const serverMedian = percentile(serverSamples, 0.5);
  console.log(
    `| ${benchCase.name} | ${benchCase.calls} | ${rawMedian.toFixed(3)} | ${serverMedian.toFixed(3)} | ${percentile(rawSamples, 0.99).toFixed(3)} | ${percentile(serverSamples, 0.99).toFixed(3)} | ${(serverMedian / rawMedian).toFixed(2)}× |`,
  );
}
await server.close();
