import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { LocalError } from '@toolshed/mcp-core';
import type { PoolConfig } from 'pg';
import type { parse } from 'pg-connection-string';
import type { SqlDatabaseTarget, SqlEngineSettings } from '../sql-engine.ts';

/**
 * libpq's URL reader, loaded when a PostgreSQL URL is first read: a server of
 * SQLite files alone never loads it.
 */
function parseConnectionString(url: string): ReturnType<typeof parse> {
  const { parse } = createRequire(import.meta.url)('pg-connection-string') as typeof import('pg-connection-string');
  return parse(url);
}

/** Hosts where traffic never leaves the machine, so plain text is the default there as it is in libpq. */
function isLocalHost(host: string | null | undefined): boolean {
  return (
    host == null || host === '' || host.startsWith('/') || /^(localhost|127\.\d+\.\d+\.\d+|::1|\[::1\])$/.test(host)
  );
}

/**
 * Every form of the password that could appear in a message: as given, and
 * as it sits percent-encoded in the URL.
 */
export function secretsOf(target: SqlDatabaseTarget): string[] {
  const secrets = new Set<string>();
  if (target.password) secrets.add(target.password);
  try {
    const password = new URL(target.url).password;
    if (password !== '') {
      secrets.add(password);
      secrets.add(decodeURIComponent(password));
    }
  } catch {
    // Not a WHATWG URL (a unix-socket form, say): the parser below still finds its password.
  }
  try {
    const parsed = parseConnectionString(target.url).password;
    if (parsed) secrets.add(parsed);
  } catch {
    // Refused below with a message that shows nothing of it.
  }
  return [...secrets].filter((secret) => secret.length > 0).sort((left, right) => right.length - left.length);
}

/** A message with every secret replaced, and every URL's user information too. */
export function redact(message: string, secrets: readonly string[]): string {
  let safe = message;
  for (const secret of secrets) safe = safe.replaceAll(secret, '***');
  return safe.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1***@');
}

/**
 * The `pg` pool configuration of one database: its URL as libpq would read
 * it (host, port, a unix-socket `host=`, `sslmode`, `application_name`…),
 * its password from `TOOLSHED_SQL_PASSWORD_<NAME>` first, then the URL, then
 * PGPASSWORD or ~/.pgpass as `pg` looks them up. TLS is verified whenever it
 * is used; a host that is not local uses it unless the URL says
 * `sslmode=disable`, and `--db-ca` adds a private CA.
 */
export function postgresPoolConfig(target: SqlDatabaseTarget, settings: SqlEngineSettings): PoolConfig {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parseConnectionString(target.url);
  } catch (error) {
    throw new LocalError(
      'config_invalid',
      `database "${target.name}": the PostgreSQL URL cannot be read (${redact((error as Error).message, secretsOf(target))})`,
    );
  }
  // Read from the text: a unix-socket URL (`postgres://user@/db?host=/run/postgresql`) is no WHATWG URL.
  const sslMode = /[?&]sslmode=([^&#]*)/.exec(target.url)?.[1] ?? null;
  let ssl = parsed.ssl as PoolConfig['ssl'];
  if (typeof ssl === 'string') ssl = {};
  if (ssl === undefined && sslMode === null && !isLocalHost(parsed.host)) ssl = {};
  if (ssl === true) ssl = {};
  if (typeof ssl === 'object' && settings.caFile !== undefined) {
    ssl = { ...ssl, ca: readFileSync(settings.caFile, 'utf8') };
  }
  const config: PoolConfig = {
    ...(Object.fromEntries(
      Object.entries(parsed).filter(([, value]) => value !== null && value !== undefined),
    ) as PoolConfig),
    ssl: ssl ?? false,
    max: settings.limits.maxConcurrentQueries,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: Math.max(settings.limits.timeoutMs, 1000),
    keepAlive: true,
    // Names our sessions in pg_stat_activity, for the operator.
    application_name: (parsed.application_name as string | undefined) ?? 'toolshed-sql',
  };
  if (parsed.port != null) config.port = Number(parsed.port);
  if (target.password !== undefined) config.password = target.password;
  if (target.through !== undefined) {
    // pg checks the certificate against ssl.host and ssl.servername when it connects to an IP: the database's
    // name, not the tunnel's.
    const host = config.host ?? 'localhost';
    if (typeof config.ssl === 'object') {
      config.ssl = { ...config.ssl, host, ...(isIP(host) === 0 ? { servername: host } : {}) };
    }
    // A directory as the host is a unix socket to pg: DIRECTORY/.s.PGSQL.PORT.
    config.host = target.through.directory;
    config.port = target.through.port;
  }
  return config;
}
