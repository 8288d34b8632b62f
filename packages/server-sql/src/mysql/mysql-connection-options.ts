import { readFileSync } from 'node:fs';
import { connect, isIP } from 'node:net';
import { join } from 'node:path';
import { LocalError } from '@toolshed/mcp-core';
import type { ConnectionOptions } from 'mysql2';
import type { SqlDatabaseTarget, SqlEngineSettings } from '../sql-engine.ts';

export interface MysqlConnectionSettings {
  /** mysql2's options for every connection of the database, password included. */
  connection: ConnectionOptions;
  /** `user@host:port/database`, for messages: never the password. */
  described: string;
  /** The password, so that messages can be scrubbed of it should a driver ever echo it. */
  password: string | undefined;
}

const loopbackHosts = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

type TlsMode = 'disabled' | 'required' | 'verify-ca' | 'verify-identity';

/** `ssl-mode` as the mysql client spells it, or `sslmode` as libpq does. */
function tlsMode(url: URL, host: string): TlsMode {
  const given = (url.searchParams.get('ssl-mode') ?? url.searchParams.get('sslmode'))?.toLowerCase().replace('_', '-');
  switch (given) {
    case undefined:
      // Loopback traffic never leaves the machine; anywhere else the server must prove who it is.
      return loopbackHosts.has(host) || url.searchParams.has('socket') ? 'disabled' : 'verify-identity';
    case 'disabled':
    case 'disable':
      return 'disabled';
    case 'required':
    case 'require':
      return 'required';
    case 'verify-ca':
      return 'verify-ca';
    case 'verify-identity':
    case 'verify-full':
      return 'verify-identity';
    default:
      throw new LocalError(
        'config_invalid',
        `ssl-mode "${given}" is not one of DISABLED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY (default VERIFY_IDENTITY, DISABLED on loopback)`,
      );
  }
}

/**
 * mysql2 options from a `mysql://` or `mariadb://` URL: one statement per
 * request (no multi-statements), no LOCAL INFILE, TLS verified unless the
 * server is on loopback or the URL says otherwise, and the password from
 * `TOOLSHED_SQL_PASSWORD_<NAME>` over the URL's.
 */
export function mysqlConnectionSettings(
  target: SqlDatabaseTarget,
  settings: Pick<SqlEngineSettings, 'caFile'>,
): MysqlConnectionSettings {
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    throw new LocalError('config_invalid', `database "${target.name}": the mysql:// URL cannot be read`);
  }
  const host = url.hostname || '127.0.0.1';
  const user = decodeURIComponent(url.username);
  const password = target.password ?? (url.password === '' ? undefined : decodeURIComponent(url.password));
  const database = decodeURIComponent(url.pathname.replace(/^\//, '')) || undefined;
  const socket = url.searchParams.get('socket') ?? undefined;
  const port = url.port === '' ? 3306 : Number(url.port);
  const mode = tlsMode(url, host);
  const ssl =
    mode === 'disabled'
      ? undefined
      : {
          rejectUnauthorized: mode !== 'required',
          // mysql2 checks the certificate's name only when asked to, and only a host name: for an IP address
          // Node would check the name "localhost" instead, so an address is held to the CA alone (as VERIFY_CA).
          ...(mode === 'verify-identity' && isIP(host.replace(/^\[|\]$/g, '')) === 0 ? { verifyIdentity: true } : {}),
          ...(settings.caFile === undefined ? {} : { ca: readFileSync(settings.caFile, 'utf8') }),
          ...(mode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}),
        };
  const connection: ConnectionOptions = {
    ...(socket === undefined ? { host: host.replace(/^\[|\]$/g, ''), port } : { socketPath: socket }),
    user,
    ...(password === undefined ? {} : { password }),
    ...(database === undefined ? {} : { database }),
    ...(ssl === undefined ? {} : { ssl }),
    multipleStatements: false,
    // LOCAL_FILES off: the server can never ask this process for a file; MULTI_STATEMENTS off as well.
    flags: ['-LOCAL_FILES', '-MULTI_STATEMENTS', '-MULTI_RESULTS'],
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    jsonStrings: true,
    decimalNumbers: false,
    connectTimeout: 10_000,
    enableKeepAlive: true,
  };
  const { through } = target;
  if (through !== undefined && socket === undefined) {
    // Through a stream of ours, mysql2 keeps host for TLS: the certificate is checked against the database's name.
    connection.stream = () => connect(join(through.directory, `.s.PGSQL.${through.port}`));
  }
  const described = `${user || '(no user)'}@${socket ?? `${host}:${port}`}${database === undefined ? '' : `/${database}`}`;
  return { connection, described, password };
}
