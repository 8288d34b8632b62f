import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpServer } from '@toolshed/mcp-core';
import { connectTestClient, freeLoopbackPort, serviceGate, type TestCallResult } from '@toolshed/mcp-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MariadbServer, mariadbService, startMariadbServer } from '../__fixtures__/mariadb-server.ts';
import {
  type PostgresServer,
  postgresService,
  rolePasswords,
  startPostgresServer,
} from '../__fixtures__/postgres-server.ts';
import { createSampleDatabase, type SampleDatabase } from '../__fixtures__/sample-database.ts';
import { createSshKeyPair, type SshServer, sshService, startSshServer } from '../__fixtures__/ssh-server.ts';
import { createTestCertificates, opensslService, type TestCertificates } from '../__fixtures__/test-certificates.ts';
import { createSqlServer, startSqlServer } from '../create-sql-server.ts';
import { sshPassphrasesFromEnvironment } from '../sql-cli.ts';
import type { SqlServerOptions } from '../sql-server-options.ts';

/**
 * Databases behind a bastion: a real OpenSSH server forwards to a real
 * PostgreSQL and MariaDB on 127.0.0.1, the tunnel opens on the first call,
 * comes back after the bastion restarts, and a bastion that is down is an
 * isError naming it while the server keeps serving.
 */

const servers: McpServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function clientFor(server: McpServer) {
  servers.push(server);
  return connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
}

function textOf(result: TestCallResult): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}

const gate =
  serviceGate(sshService, it) &&
  serviceGate(postgresService, it) &&
  serviceGate(mariadbService, it) &&
  serviceGate(opensslService, it);

describe.runIf(gate)('SSH tunnels to databases', () => {
  let ssh: SshServer;
  let postgres: PostgresServer;
  let mariadb: MariadbServer;
  let sample: SampleDatabase;
  let certificates: TestCertificates;

  beforeAll(async () => {
    sample = createSampleDatabase();
    certificates = createTestCertificates();
    const tls = { tls: certificates.server };
    [ssh, postgres, mariadb] = await Promise.all([startSshServer(), startPostgresServer(tls), startMariadbServer(tls)]);
  }, 180_000);

  afterAll(async () => {
    sample?.remove();
    await Promise.all([ssh?.stop(), postgres?.stop(), mariadb?.stop()]);
    certificates?.remove();
  });

  const tunnelTo = (url: string, overrides: Partial<SqlServerOptions> = {}): SqlServerOptions => ({
    databases: { app: url },
    sshBastions: { app: ssh.bastion },
    sshKeys: { app: ssh.clientKey.privateKeyFile },
    sshKnownHosts: ssh.knownHostsFile,
    ...overrides,
  });

  it('queries PostgreSQL through the bastion', async () => {
    const before = ssh.log().split('Accepted publickey').length;
    const client = await clientFor(createSqlServer(tunnelTo(postgres.url('reader'))));
    const result = await client.callTool('query', { sql: 'SELECT name FROM customers ORDER BY id LIMIT 2' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent?.rows).toEqual([['Aroha'], ['Björn']]);
    expect(ssh.log().split('Accepted publickey').length).toBeGreaterThan(before);
    await client.close();
  });

  it('queries MariaDB through the bastion', async () => {
    const client = await clientFor(createSqlServer(tunnelTo(mariadb.url('reader'))));
    const result = await client.callTool('query', { sql: 'SELECT 6 * 7 AS answer' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent?.rows).toEqual([[42]]);
    await client.close();
  });

  it('starts without touching an unreachable bastion, answers isError naming it, and keeps serving', async () => {
    const closedPort = await freeLoopbackPort();
    // Its key is known, so that what stops the call is the closed port.
    const knownHostsFile = join(ssh.directory, 'known_hosts_closed_port');
    writeFileSync(knownHostsFile, `[127.0.0.1]:${closedPort} ${ssh.hostKey.publicKey}\n`);
    const options = tunnelTo(postgres.url('reader'), {
      sshBastions: { app: `${ssh.user}@127.0.0.1:${closedPort}` },
      sshKnownHosts: knownHostsFile,
    });
    const server = await startSqlServer(options);
    const client = await clientFor(server);
    const result = await client.callTool('query', { sql: 'SELECT 1' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`bastion ${ssh.user}@127.0.0.1:${closedPort} cannot be reached`);
    expect(textOf(result)).toMatch(/ECONNREFUSED/);
    const again = await client.callTool('query', { sql: 'SELECT 1' });
    expect(again.isError).toBe(true);
    expect((await client.listTools()).map((tool) => tool.name)).toContain('query');
    await client.close();
  });

  it('opens the tunnel on the first call, not at start', async () => {
    const before = ssh.log().split('Accepted publickey').length;
    const server = await startSqlServer(tunnelTo(postgres.url('reader')));
    servers.push(server);
    expect(ssh.log().split('Accepted publickey').length).toBe(before);
  });

  it('builds the tunnel again after the bastion is killed and restarted', async () => {
    const client = await clientFor(createSqlServer(tunnelTo(postgres.url('reader'))));
    const first = await client.callTool('query', { sql: 'SELECT 1 AS one' });
    expect(first.isError, textOf(first)).toBeFalsy();
    await ssh.kill();
    const down = await client.callTool('query', { sql: 'SELECT 2 AS two' });
    expect(down.isError).toBe(true);
    expect(textOf(down)).toContain(`bastion ${ssh.bastion}`);
    await ssh.restart();
    const back = await client.callTool('query', { sql: 'SELECT 3 AS three' });
    expect(back.isError, textOf(back)).toBeFalsy();
    expect(back.structuredContent?.rows).toEqual([[3]]);
    await client.close();
  });

  it('says when the bastion cannot connect to the database server', async () => {
    const closedPort = await freeLoopbackPort();
    const client = await clientFor(createSqlServer(tunnelTo(`postgres://app_reader@127.0.0.1:${closedPort}/app`)));
    const result = await client.callTool('query', { sql: 'SELECT 1' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`the bastion ${ssh.bastion} could not connect to 127.0.0.1:${closedPort}`);
    await client.close();
  });

  it('listens where only its own user can connect, and closes with the server, leaving no SSH connection or socket', async () => {
    const tunnelDirectories = () =>
      new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('toolshed-sql-tunnel-')));
    const before = tunnelDirectories();
    const server = createSqlServer(tunnelTo(mariadb.url('reader')));
    const client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
    const result = await client.callTool('query', { sql: 'SELECT 1 AS one' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(ssh.sessions()).toBeGreaterThan(0);
    const created = [...tunnelDirectories()].filter((name) => !before.has(name));
    expect(created).toHaveLength(1);
    const directory = join(tmpdir(), created[0] as string);
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(readdirSync(directory)).toEqual(['.s.PGSQL.5432']);
    await client.close();
    await server.close();
    expect(existsSync(directory)).toBe(false);
    while (ssh.sessions() > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  });

  it('logs in with a key that has a passphrase, given in the environment', async () => {
    const key = createSshKeyPair(ssh.directory, 'client_with_passphrase', 'correct horse');
    appendFileSync(ssh.authorizedKeysFile, `${key.publicKey}\n`);
    const options = tunnelTo(postgres.url('reader'), {
      sshKeys: { app: key.privateKeyFile },
      sshPassphrases: sshPassphrasesFromEnvironment(
        { sshKeys: { app: key.privateKeyFile } },
        { TOOLSHED_SQL_SSH_PASSPHRASE_APP: 'correct horse' },
      ),
    });
    const client = await clientFor(createSqlServer(options));
    const result = await client.callTool('query', { sql: 'SELECT 1 AS one' });
    expect(result.isError, textOf(result)).toBeFalsy();
    await client.close();
    expect(() => createSqlServer({ ...options, sshPassphrases: {} })).toThrow(
      /is not a usable private key .*its passphrase goes in TOOLSHED_SQL_SSH_PASSPHRASE_APP/,
    );
  });

  it.each([
    [
      'a SQLite database',
      { databases: { app: 'SQLITE' } },
      /"app" is a SQLite file.*SSH tunnels are for PostgreSQL and MySQL/,
    ],
    [
      'a name no database has',
      { sshBastions: { other: 'root@127.0.0.1' }, sshKeys: { other: 'KEY' } },
      /there is no database named "other"/,
    ],
    ['no key', { sshKeys: {} }, /give the key that logs in to the bastion with --db-ssh-key app=FILE/],
    ['a key for no bastion', { sshKeys: { app: 'KEY', other: 'KEY' } }, /--db-ssh-key other=…: no bastion/],
    ['a missing known_hosts', { sshKnownHosts: '/nonexistent/known_hosts' }, /known_hosts file .* cannot be read/],
    ['a file that is no key', { sshKeys: { app: '/etc/hostname' } }, /is not a usable private key/],
    ['a unix-socket URL', { databases: { app: 'postgres://reader@/app?host=/run/postgresql' } }, /unix socket/],
  ])('refuses to start with %s', (_case, overrides, refusal) => {
    const base = tunnelTo(postgres.url('reader'));
    const options = { ...base, ...overrides } as SqlServerOptions;
    if (JSON.stringify(options.databases).includes('SQLITE')) options.databases = { app: sample.path };
    if (options.sshKeys !== undefined) {
      for (const name of Object.keys(options.sshKeys)) {
        if (options.sshKeys[name] === 'KEY') options.sshKeys[name] = ssh.clientKey.privateKeyFile;
      }
    }
    expect(() => createSqlServer(options)).toThrow(refusal);
  });

  const verified = [
    [
      'PostgreSQL',
      () => `${postgres.url('reader')}?sslmode=verify-full`,
      'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()',
      true,
    ],
    [
      'MariaDB',
      () => `${mariadb.url('reader')}?ssl-mode=VERIFY_IDENTITY`,
      "SELECT VARIABLE_VALUE LIKE 'TLS%' FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'Ssl_version'",
      1,
    ],
  ] as const;

  it.each(verified)('keeps TLS to %s inside the tunnel, verified against --db-ca', async (_engine, url, sql, yes) => {
    const client = await clientFor(createSqlServer(tunnelTo(url(), { databaseCa: certificates.caFile })));
    const result = await client.callTool('query', { sql });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent?.rows).toEqual([[yes]]);
    await client.close();
  });

  it.each(verified)(
    "checks %s's certificate against the URL's host, not the tunnel's local end",
    async (_engine, url, sql) => {
      // The certificate names 127.0.0.1, where the tunnel listens; the URL names localhost, which it does not cover.
      const options = tunnelTo(url().replace('@127.0.0.1:', '@localhost:'), { databaseCa: certificates.caFile });
      const client = await clientFor(createSqlServer(options));
      const result = await client.callTool('query', { sql });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/localhost/);
      await client.close();
    },
  );

  it('serves a tunneled database from the bin, set up by flags and their environment twins, over stdio', async () => {
    const key = createSshKeyPair(ssh.directory, 'client_for_bin', 'bin passphrase');
    appendFileSync(ssh.authorizedKeysFile, `${key.publicKey}\n`);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [
        new URL('../cli.ts', import.meta.url).pathname,
        '--db',
        `app=${postgres.url('reader', { password: false })}`,
      ].concat(['--db-ssh-key', `app=${key.privateKeyFile}`, '--db-ssh-known-hosts', ssh.knownHostsFile]),
      env: {
        ...process.env,
        TOOLSHED_SQL_DB_SSH: `app=${ssh.bastion}`,
        TOOLSHED_SQL_PASSWORD_APP: rolePasswords.reader,
        TOOLSHED_SQL_SSH_PASSPHRASE_APP: 'bin passphrase',
      } as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'query', arguments: { sql: 'SELECT count(*) AS n FROM customers' } });
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ rows: [[3]] });
    await client.close();
  });

  it('finds the bastion under a hashed known_hosts entry', async () => {
    expect(readFileSync(ssh.hashedKnownHostsFile, 'utf8')).toMatch(/^\|1\|/);
    const options = tunnelTo(mariadb.url('reader'), { sshKnownHosts: ssh.hashedKnownHostsFile });
    const client = await clientFor(createSqlServer(options));
    const result = await client.callTool('query', { sql: 'SELECT 1 AS one' });
    expect(result.isError, textOf(result)).toBeFalsy();
    await client.close();
  });
});
