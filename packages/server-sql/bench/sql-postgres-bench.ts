/**
 * The server against dbhub (`@bytebase/dbhub`, read-only, `max_rows = 5000`)
 * on the same PostgreSQL database, in one run, both as bins over stdio with
 * the same SELECT-only role and a 100,000-row table: see
 * `dbhub-comparison.ts` for what is measured and how. Every layer of ours is
 * on (gate, READ ONLY transaction, time limits, rollback, session reset, role
 * check). Needs Debian's postgresql and a built bin (`pnpm build`).
 *
 *   pnpm --filter @toolshed/server-sql bench:postgres   (builds the bin first)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { roleNames, startPostgresServer } from '../src/__fixtures__/postgres-server.ts';
import {
  type Contender,
  compareWithDbhub,
  dbhubBin,
  maxRows,
  ourBin,
  tableRows,
  timeoutMs,
} from './dbhub-comparison.ts';

const table = 'bench_numbers';
const postgres = await startPostgresServer();
const configDirectory = join(tmpdir(), `toolshed-dbhub-${process.pid}`);
try {
  const admin = await postgres.admin();
  await admin.query(`CREATE TABLE ${table} (n integer PRIMARY KEY, label text NOT NULL)`);
  await admin.query(`INSERT INTO ${table} SELECT n, 'row ' || n FROM generate_series(1, ${tableRows}) AS n`);
  await admin.query(`GRANT SELECT ON ${table} TO ${roleNames.reader}`);
  await admin.query(`VACUUM ANALYZE ${table}`);
  await admin.end();
  const dbhubConfig = join(configDirectory, 'dbhub.toml');
  mkdirSync(configDirectory, { recursive: true });
  writeFileSync(
    dbhubConfig,
    `[[sources]]\nid = "app"\ndsn = "${postgres.url('reader')}?sslmode=disable"\n\n` +
      `[[tools]]\nname = "execute_sql"\nsource = "app"\nreadonly = true\nmax_rows = ${maxRows}\n`,
  );
  const contenders: [Contender, Contender] = [
    {
      name: 'server-sql',
      args: [ourBin, '--db', postgres.url('reader'), '--max-rows', String(maxRows), '--timeout-ms', String(timeoutMs)],
      call: (sql) => ({ name: 'query', arguments: { sql } }),
    },
    {
      name: 'dbhub (read-only)',
      args: [dbhubBin, `--config=${dbhubConfig}`, '--transport=stdio'],
      call: (sql) => ({ name: 'execute_sql', arguments: { sql } }),
    },
  ];
  await compareWithDbhub(contenders, { port: postgres.port, table });
} finally {
  await postgres.stop();
  rmSync(configDirectory, { recursive: true, force: true });
}
