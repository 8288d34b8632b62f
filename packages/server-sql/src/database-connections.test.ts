import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { McpServer } from '@toolshed/mcp-core';
import { connectTestClient, serviceGate, type TestCallResult } from '@toolshed/mcp-core/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type MariadbServer, mariadbService, startMariadbServer } from './__fixtures__/mariadb-server.ts';
import { type PostgresServer, postgresService, startPostgresServer } from './__fixtures__/postgres-server.ts';
import { createTestCertificates, opensslService, type TestCertificates } from './__fixtures__/test-certificates.ts';
import { createSqlServer } from './create-sql-server.ts';
import type { SqlServerOptions } from './sql-server-options.ts';

/**
 * How the server reaches real database servers: TLS verified against a
 * private CA, never given up for plain text when verification fails, a
 * certificate for another name refused,
 * PostgreSQL over its unix socket and with the password from a pgpass file.
 */

const servers: McpServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** One `query` call through an official client, on a fresh server (and so fresh connections). */
async function queryWith(options: SqlServerOptions, sql: string): Promise<TestCallResult> {
  const server = createSqlServer(options);
  servers.push(server);
  const client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
  try {
    return await client.callTool('query', { sql });
  } finally {
    await client.close();
  }
}

function textOf(result: TestCallResult): string {
  return result.content.map((block) => block.text ?? '').join('\n');
}

const tlsGate = (service: typeof postgresService) => serviceGate(service, it) && serviceGate(opensslService, it);

describe.runIf(tlsGate(postgresService))('PostgreSQL connections', () => {
  let certificates: TestCertificates;
  let server: PostgresServer;

  beforeAll(async () => {
    certificates = createTestCertificates();
    server = await startPostgresServer({ tls: certificates.server });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    certificates?.remove();
  });

  const sessionTls = 'SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()';

  it('verifies the server against --db-ca and runs every call over TLS', async () => {
    const result = await queryWith(
      { databases: { app: `${server.url('reader')}?sslmode=verify-full` }, databaseCa: certificates.caFile },
      sessionTls,
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent?.rows).toEqual([[true]]);
  });

  it('refuses a server whose certificate no trusted CA signed, without falling back to plain text', async () => {
    const result = await queryWith({ databases: { app: `${server.url('reader')}?sslmode=require` } }, sessionTls);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/certificate/i);
    expect(textOf(result)).not.toContain(encodeURIComponent('rd-Secret'));
  });

  it('connects over the unix socket, and reads the password from a pgpass file', async () => {
    const overSocket = await queryWith(
      {
        databases: {
          app: `postgres://app_reader@/app?host=${encodeURIComponent(server.socketDirectory)}&port=${server.port}`,
        },
        passwords: { app: 'rd-Secret:p@ss/w0rd' },
      },
      'SELECT current_user, inet_server_addr() IS NULL',
    );
    expect(overSocket.isError, textOf(overSocket)).toBeFalsy();
    expect(overSocket.structuredContent?.rows).toEqual([['app_reader', true]]);

    const passFile = join(server.socketDirectory, '..', 'pgpass');
    writeFileSync(passFile, `127.0.0.1:${server.port}:app:app_reader:rd-Secret\\:p@ss/w0rd\n`, { mode: 0o600 });
    process.env.PGPASSFILE = passFile;
    try {
      const fromFile = await queryWith(
        { databases: { app: server.url('reader', { password: false }) } },
        'SELECT current_user',
      );
      expect(fromFile.isError, textOf(fromFile)).toBeFalsy();
      expect(fromFile.structuredContent?.rows).toEqual([['app_reader']]);
    } finally {
      delete process.env.PGPASSFILE;
    }
  });

  it('refuses a certificate the trusted CA signed for another name', async () => {
    copyFileSync(certificates.otherName.certificateFile, certificates.server.certificateFile);
    copyFileSync(certificates.otherName.keyFile, certificates.server.keyFile);
    const admin = await server.admin();
    try {
      await admin.query('SELECT pg_reload_conf()');
      const options = {
        databases: { app: `${server.url('reader')}?sslmode=verify-full` },
        databaseCa: certificates.caFile,
      };
      // The server takes the new certificate when it has read its configuration again; new sessions show when.
      let result = await queryWith(options, sessionTls);
      for (let attempt = 0; !result.isError && attempt < 200; attempt++) result = await queryWith(options, sessionTls);
      expect(textOf(result)).toMatch(/altnames|does not match|certificate/i);
    } finally {
      await admin.end();
    }
  });
});

describe.runIf(tlsGate(mariadbService))('MariaDB connections', () => {
  let certificates: TestCertificates;
  let server: MariadbServer;

  beforeAll(async () => {
    certificates = createTestCertificates();
    server = await startMariadbServer({ tls: certificates.server });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    certificates?.remove();
  });

  const sessionTls =
    "SELECT VARIABLE_VALUE LIKE 'TLS%' FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'Ssl_version'";

  it('verifies the server against --db-ca and runs every call over TLS', async () => {
    const result = await queryWith(
      { databases: { shop: `${server.url('reader')}?ssl-mode=VERIFY_IDENTITY` }, databaseCa: certificates.caFile },
      sessionTls,
    );
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent?.rows).toEqual([[1]]);
  });

  it('refuses a server whose certificate no trusted CA signed', async () => {
    const result = await queryWith(
      { databases: { shop: `${server.url('reader')}?ssl-mode=VERIFY_IDENTITY` } },
      sessionTls,
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/certificate/i);
  });
});
