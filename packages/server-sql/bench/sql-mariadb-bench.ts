/**
 * The server against dbhub (`@bytebase/dbhub`, read-only, `max_rows = 5000`)
 * on the same MariaDB database, in one run, both as bins over stdio with the
 * same SELECT-only account and a 100,000-row table: see
 * `dbhub-comparison.ts` for what is measured and how. Every layer of ours is
 * on (gate, read-only transactions, server time limit, connection reset,
 * account check). Needs Debian's mariadb-server and a built bin.
 *
 *   pnpm --filter @toolshed/server-sql bench:mariadb   (builds the bin first)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMariadbServer } from '../src/__fixtures__/mariadb-server.ts';
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
const mariadb = await startMariadbServer();
const configDirectory = join(tmpdir(), `toolshed-dbhub-${process.pid}`);
try {
  // The shared fixture's tables are small: a 100,000-row table of its own, readable by the reader account.
  const root = await mariadb.rootConnection();
  await root.query(`CREATE TABLE shop.${table} (n INT PRIMARY KEY, label VARCHAR(40) NOT NULL) ENGINE=InnoDB`);
  await root.query(`INSERT INTO shop.${table} SELECT seq, CONCAT('row ', seq) FROM shop.seq_1_to_${tableRows}`);
  await root.end();
  const dbhubConfig = join(configDirectory, 'dbhub.toml');
  mkdirSync(configDirectory, { recursive: true });
  writeFileSync(
    dbhubConfig,
    `[[sources]]\nid = "shop"\ndsn = "${mariadb.url('reader').replace(/^mysql:/, 'mariadb:')}?sslmode=disable"\n\n` +
      `[[tools]]\nname = "execute_sql"\nsource = "shop"\nreadonly = true\nmax_rows = ${maxRows}\n`,
  );
  const contenders: [Contender, Contender] = [
    {
      name: 'server-sql',
      args: [ourBin, '--db', mariadb.url('reader'), '--max-rows', String(maxRows), '--timeout-ms', String(timeoutMs)],
      call: (sql) => ({ name: 'query', arguments: { sql } }),
    },
    {
      name: 'dbhub (read-only)',
      args: [dbhubBin, `--config=${dbhubConfig}`, '--transport=stdio'],
      call: (sql) => ({ name: 'execute_sql', arguments: { sql } }),
    },
  ];
  await compareWithDbhub(contenders, { port: mariadb.port, table });
} finally {
  await mariadb.stop();
  rmSync(configDirectory, { recursive: true, force: true });
}
