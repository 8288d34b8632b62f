/**
 * The server against dbhub (`@bytebase/dbhub`, read-only mode) on the same
 * MariaDB database, in one run, both as bins over stdio with a SELECT-only
 * account: point lookups with 8 calls in flight, a 10,000-row scan, cold
 * start to the first tools/list, and the PSS of each process tree. Every layer
 * of ours is on (gate, read-only transaction, server time limit, connection
 * reset, account check). Needs Debian's mariadb-server and a built bin.
 *
 *   pnpm --filter @toolshed/server-sql bench:mariadb   (builds the bin first)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMariadbServer } from '../src/__fixtures__/mariadb-server.ts';
import { type Contender, compareWithDbhub, dbhubBin, ourBin } from './dbhub-comparison.ts';

const mariadb = await startMariadbServer();
const configDirectory = join(tmpdir(), `toolshed-dbhub-${process.pid}`);
try {
  // The shared fixture's tables are small: a 10,000-row table of its own, readable by the reader account.
  const root = await mariadb.rootConnection();
  await root.query('CREATE TABLE shop.bench_numbers (n INT PRIMARY KEY, label VARCHAR(40) NOT NULL) ENGINE=InnoDB');
  await root.query("INSERT INTO shop.bench_numbers SELECT seq, CONCAT('row ', seq) FROM shop.seq_1_to_10000");
  await root.end();
  const dbhubConfig = join(configDirectory, 'dbhub.toml');
  mkdirSync(configDirectory, { recursive: true });
  writeFileSync(
    dbhubConfig,
    `[[sources]]\nid = "shop"\ndsn = "${mariadb.url('reader').replace(/^mysql:/, 'mariadb:')}?sslmode=disable"\n\n[[tools]]\nname = "execute_sql"\nsource = "shop"\nreadonly = true\n`,
  );
  const contenders: [Contender, Contender] = [
    {
      name: 'server-sql',
      args: [ourBin, '--db', mariadb.url('reader'), '--max-rows', '10000', '--max-result-bytes', '16000000'],
      pointLookup: (id) => ({
        name: 'query',
        arguments: { sql: 'SELECT * FROM bench_numbers WHERE n = ?', params: [id] },
      }),
      scan: { name: 'query', arguments: { sql: 'SELECT * FROM bench_numbers ORDER BY n', max_rows: 10_000 } },
    },
    {
      name: 'dbhub (read-only)',
      args: [dbhubBin, `--config=${dbhubConfig}`, '--transport=stdio'],
      pointLookup: (id) => ({
        name: 'execute_sql',
        arguments: { sql: `SELECT * FROM bench_numbers WHERE n = ${id}` },
      }),
      scan: { name: 'execute_sql', arguments: { sql: 'SELECT * FROM bench_numbers ORDER BY n' } },
    },
  ];
  await compareWithDbhub(contenders, { port: mariadb.port });
} finally {
  await mariadb.stop();
  rmSync(configDirectory, { recursive: true, force: true });
}
