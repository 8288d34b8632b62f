import { setTimeout as delay } from 'node:timers/promises';
import { initPostgresCluster, postgresService, type ServiceProcess } from '@toolshed/mcp-core/testing';
import pg from 'pg';

/** Debian's PostgreSQL, as the tests that need a real one start it. */
export { postgresService };

export type PostgresRole = 'reader' | 'owner' | 'superuser';

/** The roles every test database has: a SELECT-only reader, the tables' owner, and the superuser. */
export const roleNames: Record<PostgresRole, string> = {
  reader: 'app_reader',
  owner: 'app_owner',
  superuser: 'postgres',
};

/** Passwords with characters a URL must encode, so that a leak in either form is caught. */
export const rolePasswords: Record<PostgresRole, string> = {
  reader: 'rd-Secret:p@ss/w0rd',
  owner: 'ow-Secret#word?2',
  superuser: 'su-Secret%pass3',
};

export interface PostgresServer {
  port: number;
  /** The directory of its unix socket. */
  socketDirectory: string;
  /** `postgres://role:password@127.0.0.1:port/app`, the password percent-encoded. */
  url(role: PostgresRole, options?: { password?: boolean; database?: string }): string;
  /** A new superuser connection to the app database, for setting up and checking from outside. */
  admin(): Promise<pg.Client>;
  process: ServiceProcess;
  stop(): Promise<void>;
}

const setupSql = `
CREATE ROLE ${roleNames.owner} LOGIN PASSWORD '${rolePasswords.owner}';
CREATE ROLE ${roleNames.reader} LOGIN PASSWORD '${rolePasswords.reader}';
CREATE DATABASE app OWNER ${roleNames.owner};
`;

/** The tables, created by their owner. */
const appSql = `
CREATE TABLE customers (id integer PRIMARY KEY, name text NOT NULL, email text UNIQUE, country text DEFAULT 'NZ');
CREATE TABLE orders (id bigserial PRIMARY KEY, customer_id integer NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  total numeric(10, 2) NOT NULL, placed_at timestamptz NOT NULL DEFAULT now());
CREATE INDEX orders_by_customer ON orders (customer_id, placed_at);
CREATE VIEW big_spenders AS SELECT customer_id, sum(total) AS spent FROM orders GROUP BY customer_id HAVING sum(total) > 100;
CREATE SCHEMA reporting;
CREATE TABLE reporting.daily (day date PRIMARY KEY, orders integer NOT NULL);
CREATE SEQUENCE invoice_numbers;
CREATE TABLE "Odd ""Name"" Table" ("select" integer, "x;y" text);
INSERT INTO customers VALUES (1, 'Aroha', 'aroha@example.com', 'NZ'), (2, 'Björn', 'bjorn@example.com', 'SE'), (3, '田中', NULL, 'JP');
INSERT INTO orders (customer_id, total, placed_at)
  SELECT 1 + (n % 3), (n * 7 % 500) + 0.25, timestamptz '2024-01-01 00:00:00+00' + n * interval '1 hour' FROM generate_series(1, 250) AS n;
INSERT INTO reporting.daily VALUES ('2024-01-01', 24), ('2024-01-02', 24);
CREATE TABLE numbers (n integer PRIMARY KEY, label text NOT NULL);
INSERT INTO numbers SELECT n, 'row ' || n FROM generate_series(1, 10000) AS n;
GRANT USAGE ON SCHEMA reporting TO ${roleNames.reader};
GRANT SELECT ON ALL TABLES IN SCHEMA public, reporting TO ${roleNames.reader};
`;

/**
 * Starts a PostgreSQL of its own: initdb into a temporary directory, run as
 * `nobody` when the tests run as root, listening on 127.0.0.1 on a free port
 * and on a socket in that directory, fsync off. It has an `app` database
 * owned by `app_owner`, readable by `app_reader`, with customers, orders, a
 * view, a second schema, a sequence and a 10,000-row table. With `tls`, it
 * also speaks TLS with that certificate.
 */
export async function startPostgresServer(
  options: { tls?: { certificateFile: string; keyFile: string } } = {},
): Promise<PostgresServer> {
  const cluster = initPostgresCluster({ superuser: roleNames.superuser, password: rolePasswords.superuser });
  const { socketDirectory } = cluster;
  const service = await cluster.start({
    settings: {
      max_connections: '200',
      ...(options.tls === undefined
        ? {}
        : { ssl: 'on', ssl_cert_file: options.tls.certificateFile, ssl_key_file: options.tls.keyFile }),
    },
  });
  const url: PostgresServer['url'] = (role, options = {}) => {
    const password = options.password === false ? '' : `:${encodeURIComponent(rolePasswords[role])}`;
    return `postgres://${roleNames[role]}${password}@127.0.0.1:${service.port}/${options.database ?? 'app'}`;
  };
  const connect = async (role: PostgresRole, database: string) => {
    const client = new pg.Client({
      host: '127.0.0.1',
      port: service.port,
      user: roleNames[role],
      password: rolePasswords[role],
      database,
      application_name: 'toolshed-sql tests',
    });
    // A connection the server ends (a test terminating it, the server stopping) is not a test failure.
    client.on('error', () => {});
    await client.connect();
    return client;
  };
  try {
    // The port answers before the server accepts sessions ("the database system is starting up").
    let admin: pg.Client | undefined;
    for (let attempt = 0; admin === undefined; attempt++) {
      try {
        admin = await connect('superuser', 'postgres');
      } catch (error) {
        if ((error as { code?: string }).code !== '57P03' || attempt > 600) throw error;
        await delay(50);
      }
    }
    // CREATE DATABASE runs alone, outside the implicit transaction of a multi-statement query.
    for (const statement of setupSql.split(';').map((text) => text.trim())) {
      if (statement !== '') await admin.query(statement);
    }
    await admin.end();
    const owner = await connect('owner', 'app');
    await owner.query(appSql);
    await owner.end();
  } catch (error) {
    await service.stop();
    cluster.remove();
    throw error;
  }
  return {
    port: service.port,
    socketDirectory,
    url,
    admin: () => connect('superuser', 'app'),
    process: service,
    async stop() {
      await service.stop();
      cluster.remove();
    },
  };
}
