/**
 * The server against dbhub (`@bytebase/dbhub`, read-only mode) on the same
 * PostgreSQL database, in one run, both as bins over stdio with a SELECT-only
 * role: point lookups with 8 calls in flight, a 10,000-row scan, cold start
 * to the first tools/list, and the PSS of each process tree. Every layer of
 * ours is on (gate, READ ONLY transaction, rollback, DISCARD ALL, role check).
 * Needs Debian's postgresql and a built bin (`pnpm build`).
 *
 *   pnpm --filter @toolshed/server-sql bench:postgres   (builds the bin first)
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPostgresServer } from '../src/__fixtures__/postgres-server.ts';
import { type Contender, compareWithDbhub, dbhubBin, ourBin } from './dbhub-comparison.ts';

const postgres = await startPostgresServer();
const configDirectory = join(tmpdir(), `toolshed-dbhub-${process.pid}`);
try {
  const dbhubConfig = join(configDirectory, 'dbhub.toml');
  mkdirSync(configDirectory, { recursive: true });
  writeFileSync(
    dbhubConfig,
    `[[sources]]\nid = "app"\ndsn = "${postgres.url('reader')}?sslmode=disable"\n\n[[tools]]\nname = "execute_sql"\nsource = "app"\nreadonly = true\n`,
  );
  const contenders: [Contender, Contender] = [
    {
      name: 'server-sql',
      args: [ourBin, '--db', postgres.url('reader'), '--max-rows', '10000', '--max-result-bytes', '16000000'],
      pointLookup: (id) => ({
        name: 'query',
        arguments: { sql: 'SELECT * FROM numbers WHERE n = $1', params: [id] },
      }),
      scan: { name: 'query', arguments: { sql: 'SELECT * FROM numbers ORDER BY n', max_rows: 10_000 } },
    },
    {
      name: 'dbhub (read-only)',
      args: [dbhubBin, `--config=${dbhubConfig}`, '--transport=stdio'],
      pointLookup: (id) => ({ name: 'execute_sql', arguments: { sql: `SELECT * FROM numbers WHERE n = ${id}` } }),
      scan: { name: 'execute_sql', arguments: { sql: 'SELECT * FROM numbers ORDER BY n' } },
    },
  ];
  await compareWithDbhub(contenders, { port: postgres.port });
} finally {
  await postgres.stop();
  rmSync(configDirectory, { recursive: true, force: true });
}
