/**
 * What an SSH tunnel costs a PostgreSQL call: the same server, in process,
 * with the database reached directly and through a real OpenSSH bastion on
 * the same machine, in one run. Point lookups with 8 calls in flight, in
 * rounds that alternate between the two; each figure is the median of its
 * rounds, with the lowest and highest. Then the first call of a new server,
 * which opens the tunnel (and a new connection) against one that only opens
 * a connection, alternating too. Needs Debian's postgresql and openssh-server.
 *
 *   pnpm --filter @toolshed/server-sql bench:ssh
 */
import type { McpServer } from '@toolshed/mcp-core';
import { connectTestClient } from '@toolshed/mcp-core/testing';
import { startPostgresServer } from '../src/__fixtures__/postgres-server.ts';
import { startSshServer } from '../src/__fixtures__/ssh-server.ts';
import { createSqlServer } from '../src/create-sql-server.ts';
import type { SqlServerOptions } from '../src/sql-server-options.ts';

const rounds = 7;
const callsPerRound = 400;
const inFlight = 8;
const firstCallSamples = 9;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

function spread(values: readonly number[], digits: number): string {
  return `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
}

async function connect(options: SqlServerOptions) {
  const server: McpServer = createSqlServer(options);
  const client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
  return {
    client,
    async close() {
      await client.close();
      await server.close();
    },
  };
}

async function pointLookups(client: Awaited<ReturnType<typeof connect>>['client']): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < callsPerRound) {
        const id = 1 + (next++ % 10_000);
        const result = await client.callTool('query', { sql: 'SELECT * FROM numbers WHERE n = $1', params: [id] });
        if (result.isError) throw new Error(JSON.stringify(result.content));
      }
    }),
  );
  return callsPerRound / ((performance.now() - started) / 1000);
}

const [ssh, postgres] = await Promise.all([startSshServer(), startPostgresServer()]);
try {
  const direct: SqlServerOptions = { databases: { app: postgres.url('reader') } };
  const tunneled: SqlServerOptions = {
    ...direct,
    sshBastions: { app: ssh.bastion },
    sshKeys: { app: ssh.clientKey.privateKeyFile },
    sshKnownHosts: ssh.knownHostsFile,
  };
  const contenders = [
    { name: 'direct', options: direct },
    { name: 'through the SSH tunnel', options: tunneled },
  ] as const;

  const connected = await Promise.all(contenders.map((contender) => connect(contender.options)));
  const callsPerSecond: number[][] = contenders.map(() => []);
  for (const { client } of connected) await pointLookups(client); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const [index, { client }] of connected.entries()) callsPerSecond[index]?.push(await pointLookups(client));
  }
  await Promise.all(connected.map((each) => each.close()));

  const firstCallMs: number[][] = contenders.map(() => []);
  for (let sample = 0; sample < firstCallSamples; sample++) {
    for (const [index, contender] of contenders.entries()) {
      const fresh = await connect(contender.options);
      const started = performance.now();
      const result = await fresh.client.callTool('query', { sql: 'SELECT 1 AS one' });
      firstCallMs[index]?.push(performance.now() - started);
      if (result.isError) throw new Error(JSON.stringify(result.content));
      await fresh.close();
    }
  }

  console.log(`PostgreSQL point lookups, ${inFlight} in flight, ${rounds} rounds of ${callsPerRound} calls each:\n`);
  console.log(
    '| Database reached | calls/s (median) | rounds (low–high) | first call, ms (median) | first calls (low–high) |',
  );
  console.log('| --- | --- | --- | --- | --- |');
  for (const [index, contender] of contenders.entries()) {
    const rates = callsPerSecond[index] as number[];
    const firsts = firstCallMs[index] as number[];
    console.log(
      `| ${contender.name} | ${median(rates).toFixed(0)} | ${spread(rates, 0)} | ${median(firsts).toFixed(1)} | ${spread(firsts, 1)} |`,
    );
  }
  const ratio = median(callsPerSecond[1] as number[]) / median(callsPerSecond[0] as number[]);
  console.log(`\nThrough the tunnel: ${ratio.toFixed(2)}× the direct calls/s.`);
} finally {
  await Promise.all([ssh.stop(), postgres.stop()]);
}
