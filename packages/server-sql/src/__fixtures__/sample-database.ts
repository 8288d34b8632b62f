import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

export interface SampleDatabase {
  directory: string;
  path: string;
  remove(): void;
}

/**
 * A real SQLite file with the shapes the tools must handle: foreign keys,
 * indexes, a view, a trigger, a generated column, BLOBs, integers beyond
 * 2^53, REAL infinities, NULLs and non-ASCII text.
 */
export function createSampleDatabase(name = 'shop.db'): SampleDatabase {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-sql-'));
  const path = join(directory, name);
  const db = new Database(path);
  db.exec(`
    CREATE TABLE customers (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      email TEXT UNIQUE,
      country TEXT DEFAULT 'NZ'
    );
    CREATE TABLE orders (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers(id) ON DELETE CASCADE,
      total REAL NOT NULL,
      placed_at TEXT NOT NULL,
      total_cents INTEGER GENERATED ALWAYS AS (CAST(total * 100 AS INTEGER)) VIRTUAL
    );
    CREATE INDEX orders_by_customer ON orders (customer_id, placed_at);
    CREATE TABLE "odd ""name"" table" ("select" TEXT, "x;y" INTEGER);
    CREATE TABLE measurements (id INTEGER PRIMARY KEY, big INTEGER, ratio REAL, payload BLOB, note TEXT);
    CREATE VIEW big_spenders AS SELECT c.name, sum(o.total) AS spent FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id HAVING spent > 100;
    CREATE TABLE audit (at TEXT, what TEXT);
  `);
  const addCustomer = db.prepare('INSERT INTO customers (id, name, email, country) VALUES (?, ?, ?, ?)');
  const addOrder = db.prepare('INSERT INTO orders (id, customer_id, total, placed_at) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    addCustomer.run(1, 'Aroha', 'aroha@example.com', 'NZ');
    addCustomer.run(2, 'Björn', 'bjorn@example.com', 'SE');
    addCustomer.run(3, '田中', null, 'JP');
    for (let id = 1; id <= 250; id++)
      addOrder.run(id, (id % 3) + 1, (id * 7.5) % 200, `2026-0${(id % 9) + 1}-1${id % 10}`);
    db.prepare('INSERT INTO "odd ""name"" table" VALUES (?, ?)').run('yes', 1);
    const measure = db.prepare('INSERT INTO measurements VALUES (?, ?, ?, ?, ?)');
    measure.run(1, 9007199254740993n, Number.POSITIVE_INFINITY, Buffer.from([1, 2, 3]), 'small blob');
    measure.run(2, -9223372036854775808n, -Number.POSITIVE_INFINITY, Buffer.alloc(10_000, 7), 'large blob');
    measure.run(3, 42, 0.5, null, null);
  })();
  db.exec(
    "CREATE TRIGGER orders_audit AFTER INSERT ON orders BEGIN INSERT INTO audit VALUES (datetime('now'), 'order'); END;",
  );
  db.close();
  return { directory, path, remove: () => rmSync(directory, { recursive: true, force: true }) };
}
