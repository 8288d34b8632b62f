/**
 * export_query writing about 100 MB of CSV, against the command-line tools
 * that do the same: `psql \copy (query) to file csv header` on the same
 * PostgreSQL table, and Debian's `sqlite3 -csv -header` on the same SQLite
 * file (skipped, and said so, when `sqlite3` is not installed). The server
 * runs in this process over an in-memory MCP connection, as a host mounts
 * it; the tools run as the processes they are. Rounds alternate between
 * contenders; each figure is the median of its rounds. Needs Debian's
 * postgresql and postgresql-client.
 *
 *   pnpm --filter @toolshed/server-sql bench:export
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBareClient } from '@toolshed/mcp-core/testing';
import Database from 'better-sqlite3';
import { roleNames, rolePasswords, startPostgresServer } from '../src/__fixtures__/postgres-server.ts';
import { createSqlServer } from '../src/index.ts';

const rowCount = 1_200_000;
const rounds = 5;
const sql = 'SELECT * FROM events ORDER BY id';
const dataDirectory = new URL('./.data/', import.meta.url).pathname;
const sqlitePath = join(dataDirectory, `events-${rowCount}.db`);

/** The table both databases hold, row for row: about 85 bytes of CSV a row. */
const columns =
  'id INTEGER PRIMARY KEY, customer TEXT NOT NULL, amount DOUBLE PRECISION NOT NULL, created_at TEXT NOT NULL, note TEXT';

function generateSqlite(): void {
  if (existsSync(sqlitePath)) return;
  mkdirSync(dataDirectory, { recursive: true });
  const partial = `${sqlitePath}.partial`;
  rmSync(partial, { force: true });
  const db = new Database(partial);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.exec(`CREATE TABLE events (${columns})`);
  const insert = db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let id = 1; id <= rowCount; id++) {
      insert.run(
        id,
        `customer ${id % 5000}`,
        ((id * 37) % 100_000) / 100,
        `2026-${String((id % 12) + 1).padStart(2, '0')}-${String((id % 28) + 1).padStart(2, '0')}T10:00:00Z`,
        id % 10 === 0 ? null : `note for event ${id}, with a comma`,
      );
    }
  })();
  db.close();
  renameSync(partial, sqlitePath);
}

const postgresRows = `
  INSERT INTO events
  SELECT n, 'customer ' || (n % 5000), ((n * 37) % 100000) / 100.0,
         '2026-' || lpad(((n % 12) + 1)::text, 2, '0') || '-' || lpad(((n % 28) + 1)::text, 2, '0') || 'T10:00:00Z',
         CASE WHEN n % 10 = 0 THEN NULL ELSE 'note for event ' || n || ', with a comma' END
    FROM generate_series(1, ${rowCount}) AS n`;

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function hasCommand(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

interface Contender {
  name: string;
  /** Writes the CSV to `path`. */
  run(path: string): Promise<void>;
  times: number[];
  /** A command-line tool's time with its file then flushed to the disk, as export_query does before naming it. */
  flushedTimes?: number[];
  bytes: number;
}

/** fdatasync of a file another process wrote: what export_query does before the file gets its name. */
function flushToDisk(path: string): void {
  const descriptor = openSync(path, 'r+');
  try {
    fdatasyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

generateSqlite();
const postgres = await startPostgresServer();
const outputDirectory = mkdtempSync(join(tmpdir(), 'toolshed-sql-export-bench-'));
try {
  const admin = await postgres.admin();
  await admin.query(`CREATE TABLE events (${columns.replace('INTEGER PRIMARY KEY', 'bigint PRIMARY KEY')})`);
  await admin.query(postgresRows);
  await admin.query(`GRANT SELECT ON events TO ${roleNames.reader}`);
  await admin.query('VACUUM ANALYZE events');
  await admin.end();

  const server = createSqlServer({
    databases: { app: postgres.url('reader'), file: sqlitePath },
    exportDirectory: outputDirectory,
  });
  const client = await connectBareClient(server);
  const exportTo = async (database: string, path: string) => {
    const file = path.slice(outputDirectory.length + 1);
    const result = (await client.callTool('export_query', { database, sql, format: 'csv', file })) as {
      isError?: boolean;
      content: { text?: string }[];
    };
    if (result.isError) throw new Error(`export_query failed: ${result.content[0]?.text}`);
  };
  const contenders: Contender[] = [
    { name: 'export_query, PostgreSQL', run: (path) => exportTo('app', path), times: [], bytes: 0 },
    {
      name: 'psql \\copy … csv header',
      run: async (path) => {
        execFileSync(
          'psql',
          [
            '-X',
            '-q',
            '-h',
            '127.0.0.1',
            '-p',
            String(postgres.port),
            '-U',
            roleNames.reader,
            '-d',
            'app',
            '-c',
            `\\copy (${sql}) to '${path}' csv header`,
          ],
          { env: { ...process.env, PGPASSWORD: rolePasswords.reader }, stdio: ['ignore', 'ignore', 'inherit'] },
        );
      },
      times: [],
      flushedTimes: [],
      bytes: 0,
    },
    { name: 'export_query, SQLite', run: (path) => exportTo('file', path), times: [], bytes: 0 },
  ];
  const sqlite3 = hasCommand('sqlite3');
  if (sqlite3) {
    contenders.push({
      name: 'sqlite3 -csv -header',
      run: async (path) => {
        const output = openSync(path, 'wx');
        try {
          execFileSync('sqlite3', ['-readonly', '-csv', '-header', sqlitePath, sql], {
            stdio: ['ignore', output, 'inherit'],
          });
        } finally {
          closeSync(output);
        }
      },
      times: [],
      flushedTimes: [],
      bytes: 0,
    });
  }

  // A first round warms every cache (the file's pages, the server's buffers, the query process); it is not counted.
  for (let round = 0; round <= rounds; round++) {
    for (const contender of contenders) {
      const path = join(outputDirectory, `round-${round}.csv`);
      const started = performance.now();
      await contender.run(path);
      const elapsed = performance.now() - started;
      if (contender.flushedTimes !== undefined) flushToDisk(path);
      const flushed = performance.now() - started;
      contender.bytes = statSync(path).size;
      rmSync(path);
      if (round > 0) {
        contender.times.push(elapsed);
        contender.flushedTimes?.push(flushed);
      }
    }
  }
  await server.close();

  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  console.log(
    `${rowCount.toLocaleString('en')} rows, ${rounds} rounds after a warm-up, medians; Node ${process.version}\n`,
  );
  console.log(line(['export', 'MB written', 'median s', 'MB/s', 'ratio', 'tool + fdatasync s', 'ratio to that']));
  console.log(line(['---', '---:', '---:', '---:', '---:', '---:', '---:']));
  const reference = (ours: string) => contenders.find((contender) => contender.name === ours);
  for (const contender of contenders) {
    const seconds = median(contender.times) / 1000;
    const anchor = contender.name.startsWith('export_query, PostgreSQL')
      ? reference('psql \\copy … csv header')
      : contender.name.startsWith('export_query, SQLite')
        ? reference('sqlite3 -csv -header')
        : undefined;
    const ratio = anchor === undefined ? '' : `${(median(contender.times) / median(anchor.times)).toFixed(2)}×`;
    const anchorFlushed = anchor?.flushedTimes;
    console.log(
      line([
        contender.name,
        (contender.bytes / 1e6).toFixed(1),
        seconds.toFixed(2),
        (contender.bytes / 1e6 / seconds).toFixed(0),
        ratio,
        contender.flushedTimes === undefined ? '' : (median(contender.flushedTimes) / 1000).toFixed(2),
        anchorFlushed === undefined ? '' : `${(median(contender.times) / median(anchorFlushed)).toFixed(2)}×`,
      ]),
    );
  }
  if (!sqlite3) console.log('\nsqlite3 is not installed (Debian: apt-get install sqlite3): only psql was compared.');
  console.log(
    `\nPeak RSS of this process (the server, the bench and its client): ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  );
} finally {
  await postgres.stop();
  rmSync(outputDirectory, { recursive: true, force: true });
}
