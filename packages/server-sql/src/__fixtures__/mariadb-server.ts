import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ServiceProcess, startServiceProcess, unprivilegedIds } from '@toolshed/mcp-core/testing';
import mysql from 'mysql2/promise';
import { openMysqlDatabase } from '../mysql/mysql-database.ts';
import type { QueryRequest, SqlParameters } from '../query-messages.ts';
import type { SqlDatabase, SqlEngineSettings, SqlOutcome } from '../sql-engine.ts';
import { type SqlLimits, sqlServerOptions } from '../sql-server-options.ts';

/** The MariaDB a test suite needs, as the gate of `serviceGate` names it. */
export const mariadbService = {
  name: 'MariaDB',
  binary: '/usr/sbin/mariadbd',
  debianPackage: 'mariadb-server',
} as const;

export type MariadbRole = 'reader' | 'owner' | 'superuser';

export interface MariadbAccount {
  user: string;
  password: string;
}

export interface MariadbServer {
  port: number;
  /** The schema the tables live in. */
  database: string;
  accounts: Record<MariadbRole, MariadbAccount>;
  /** Where the server may read and write files (`secure_file_priv`): nothing of ours may appear there. */
  fileDirectory: string;
  /** A `mysql://` URL for one account, password included. */
  url(role: MariadbRole, options?: { database?: string; withPassword?: boolean }): string;
  /** A connection as root, for setting up and checking from outside the server under test. */
  rootConnection(): Promise<mysql.Connection>;
  stop(): Promise<void>;
  /** Stops the server and starts it again on the same port and data. */
  restart(): Promise<void>;
}

const seed = `
CREATE TABLE customers (
  id INT PRIMARY KEY AUTO_INCREMENT,
  name VARCHAR(100) NOT NULL,
  email VARCHAR(200) UNIQUE,
  country CHAR(2) DEFAULT 'NZ'
) ENGINE=InnoDB;
CREATE TABLE orders (
  id INT PRIMARY KEY AUTO_INCREMENT,
  customer_id INT NOT NULL,
  total DECIMAL(10,2) NOT NULL,
  placed_at DATETIME NOT NULL,
  KEY orders_customer (customer_id),
  CONSTRAINT orders_customer_fk FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE
) ENGINE=InnoDB;
CREATE TABLE audit_log (id INT PRIMARY KEY AUTO_INCREMENT, note VARCHAR(100)) ENGINE=MyISAM;
CREATE TABLE numbers (n INT PRIMARY KEY) ENGINE=InnoDB;
CREATE VIEW big_orders AS SELECT id, customer_id, total FROM orders WHERE total > 100;
CREATE SEQUENCE invoice_numbers START WITH 1000;
INSERT INTO customers (name, email, country) VALUES ('Ana', 'ana@example.com', 'NZ'), ('Bo', 'bo@example.com', 'SE'), ('Chen', NULL, 'CN');
INSERT INTO orders (customer_id, total, placed_at) VALUES (1, 25.50, '2024-01-02 03:04:05'), (1, 150.00, '2024-02-03 04:05:06'), (2, 99.99, '2024-03-04 05:06:07');
INSERT INTO audit_log (note) VALUES ('created');
INSERT INTO numbers (n) SELECT seq FROM seq_1_to_1000;
CREATE FUNCTION log_visit() RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO audit_log (note) VALUES ('visit'); RETURN 1; END;
CREATE FUNCTION bump_invoice() RETURNS BIGINT MODIFIES SQL DATA RETURN NEXTVAL(invoice_numbers);
CREATE FUNCTION take_lock() RETURNS INT NO SQL RETURN GET_LOCK('toolshed_function_lock', 0);
CREATE FUNCTION tune_server() RETURNS INT NO SQL BEGIN SET GLOBAL max_connections = 77; RETURN 1; END;
`;

async function runEach(connection: mysql.Connection, script: string): Promise<void> {
  for (const statement of script.split(/;\n/).map((text) => text.trim().replace(/;$/, ''))) {
    if (statement !== '') await connection.query(statement);
  }
}

/**
 * A throwaway MariaDB from Debian's package on 127.0.0.1, a free port and a
 * temporary data directory, run as `nobody` under root, with a `shop` schema
 * and three accounts: a reader (SELECT only), the owner of the schema (ALL on
 * it) and a superuser (ALL on *.* WITH GRANT OPTION). With `tls`, it also
 * speaks TLS with that certificate.
 */
export async function startMariadbServer(
  options: { tls?: { certificateFile: string; keyFile: string } } = {},
): Promise<MariadbServer> {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-mariadb-'));
  const dataDirectory = join(directory, 'data');
  const fileDirectory = join(directory, 'files');
  mkdirSync(fileDirectory);
  const ids = unprivilegedIds();
  if (ids !== undefined) {
    chownSync(directory, ids.uid, ids.gid);
    chownSync(fileDirectory, ids.uid, ids.gid);
  }
  execFileSync(
    '/usr/bin/mariadb-install-db',
    [
      '--no-defaults',
      `--datadir=${dataDirectory}`,
      '--auth-root-authentication-method=normal',
      '--skip-test-db',
      '--skip-name-resolve',
      ...(ids === undefined ? [] : ['--user=nobody']),
    ],
    { stdio: 'pipe' },
  );
  const socket = join(directory, 'sock');
  const serverArguments = (port: number) => [
    '--no-defaults',
    `--datadir=${dataDirectory}`,
    '--bind-address=127.0.0.1',
    `--port=${port}`,
    `--socket=${socket}`,
    `--pid-file=${join(directory, 'mariadbd.pid')}`,
    `--secure-file-priv=${fileDirectory}`,
    '--skip-name-resolve',
    '--skip-log-bin',
    '--innodb-buffer-pool-size=32M',
    '--innodb-log-file-size=8M',
    '--innodb-flush-log-at-trx-commit=0',
    '--max-connections=200',
    ...(options.tls === undefined
      ? []
      : [`--ssl-cert=${options.tls.certificateFile}`, `--ssl-key=${options.tls.keyFile}`]),
  ];
  let service: ServiceProcess = await startServiceProcess({
    command: '/usr/sbin/mariadbd',
    args: serverArguments,
    listenWithinMs: 60_000,
  });
  const port = service.port;
  const accounts: Record<MariadbRole, MariadbAccount> = {
    reader: { user: 'shop_reader', password: `r-${randomBytes(9).toString('hex')}` },
    owner: { user: 'shop_owner', password: `o-${randomBytes(9).toString('hex')}` },
    superuser: { user: 'shop_admin', password: `s-${randomBytes(9).toString('hex')}` },
  };
  const rootConnection = () =>
    mysql.createConnection({ host: '127.0.0.1', port, user: 'root', multipleStatements: false });
  const root = await rootConnection();
  try {
    await root.query('CREATE DATABASE shop');
    for (const account of Object.values(accounts)) {
      await root.query('CREATE USER ?@? IDENTIFIED BY ?', [account.user, '%', account.password]);
    }
    await root.query('GRANT SELECT ON shop.* TO ?@?', [accounts.reader.user, '%']);
    await root.query('GRANT ALL PRIVILEGES ON shop.* TO ?@?', [accounts.owner.user, '%']);
    await root.query('GRANT ALL PRIVILEGES ON *.* TO ?@? WITH GRANT OPTION', [accounts.superuser.user, '%']);
    await root.query('USE shop');
    await runEach(root, seed);
  } finally {
    await root.end();
  }
  return {
    port,
    database: 'shop',
    accounts,
    fileDirectory,
    url(role, options = {}) {
      const account = accounts[role];
      const password = options.withPassword === false ? '' : `:${encodeURIComponent(account.password)}`;
      return `mysql://${account.user}${password}@127.0.0.1:${port}/${options.database ?? 'shop'}`;
    },
    rootConnection,
    async stop() {
      await service.stop();
      rmSync(directory, { recursive: true, force: true });
    },
    async restart() {
      await service.stop();
      service = await startServiceProcess({
        command: '/usr/sbin/mariadbd',
        args: serverArguments,
        port,
        listenWithinMs: 60_000,
      });
    },
  };
}

/** The files the server wrote where it may write files. */
export function serverFiles(server: MariadbServer): string[] {
  return readdirSync(server.fileDirectory);
}

/** Tables whose contents the server changes by itself (statistics), left out of the fingerprint. */
const volatileTables = new Set(['mysql.innodb_table_stats', 'mysql.innodb_index_stats', 'mysql.gtid_slave_pos']);

/** Global variables that move by themselves. */
const volatileVariables = new Set(['gtid_binlog_pos', 'gtid_current_pos', 'gtid_binlog_state']);

/**
 * A fingerprint of everything a statement could change, taken from outside:
 * every table's checksum (the grant tables included), every sequence's state,
 * every view, routine, trigger and event definition, every global variable,
 * and the files in the server's file directory.
 */
export async function serverFingerprint(server: MariadbServer, root: mysql.Connection): Promise<string> {
  const parts: unknown[] = [];
  const [objects] = (await root.query(
    `SELECT TABLE_SCHEMA AS table_schema, TABLE_NAME AS table_name, TABLE_TYPE AS table_type, ENGINE AS engine
       FROM information_schema.TABLES WHERE TABLE_SCHEMA NOT IN ('information_schema', 'performance_schema')
      ORDER BY TABLE_SCHEMA, TABLE_NAME`,
  )) as unknown as [{ table_schema: string; table_name: string; table_type: string; engine: string | null }[]];
  for (const object of objects) {
    const name = `${object.table_schema}.${object.table_name}`;
    const quoted = `\`${object.table_schema}\`.\`${object.table_name}\``;
    parts.push([name, object.table_type, object.engine]);
    if (volatileTables.has(name) || object.engine === 'CSV') continue;
    if (object.table_type === 'SEQUENCE') parts.push((await root.query(`SELECT * FROM ${quoted}`))[0]);
    else if (object.table_type === 'VIEW') parts.push((await root.query(`SHOW CREATE VIEW ${quoted}`))[0]);
    else if (object.table_type === 'BASE TABLE') {
      parts.push((await root.query(`CHECKSUM TABLE ${quoted} EXTENDED`))[0]);
    }
  }
  for (const sql of [
    'SELECT ROUTINE_SCHEMA, ROUTINE_NAME, ROUTINE_DEFINITION, DEFINER FROM information_schema.ROUTINES ORDER BY 1, 2',
    'SELECT TRIGGER_SCHEMA, TRIGGER_NAME, ACTION_STATEMENT FROM information_schema.TRIGGERS ORDER BY 1, 2',
    'SELECT EVENT_SCHEMA, EVENT_NAME, EVENT_DEFINITION FROM information_schema.EVENTS ORDER BY 1, 2',
    'SELECT User, Host, Priv FROM mysql.global_priv ORDER BY 1, 2',
  ]) {
    parts.push((await root.query(sql))[0]);
  }
  const [variables] = (await root.query('SHOW GLOBAL VARIABLES')) as unknown as [
    { Variable_name: string; Value: string }[],
  ];
  parts.push(variables.filter((variable) => !volatileVariables.has(variable.Variable_name)));
  parts.push(serverFiles(server));
  return JSON.stringify(parts);
}

/**
 * What the accounts under test still have going on the server: statements
 * running, transactions open, named locks held. Empty when nothing.
 */
export async function accountActivity(server: MariadbServer, root: mysql.Connection): Promise<unknown[]> {
  const users = Object.values(server.accounts).map((account) => account.user);
  const [running] = await root.query(
    `SELECT ID, USER, COMMAND, STATE, INFO FROM information_schema.PROCESSLIST
      WHERE USER IN (?) AND COMMAND NOT IN ('Sleep', 'Daemon') AND ID <> CONNECTION_ID()`,
    [users],
  );
  const [transactions] = await root.query(
    `SELECT t.trx_id, p.USER FROM information_schema.INNODB_TRX t
       JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id WHERE p.USER IN (?)`,
    [users],
  );
  const [locks] = (await root.query(
    "SELECT IS_USED_LOCK('toolshed_lock') AS named, IS_USED_LOCK('toolshed_function_lock') AS in_function",
  )) as unknown as [{ named: unknown; in_function: unknown }[]];
  const held = locks[0]?.named !== null || locks[0]?.in_function !== null ? [locks[0]] : [];
  return [...(running as unknown[]), ...(transactions as unknown[]), ...held];
}

/**
 * Whether every table a call could have locked can still be written at once
 * (rolled back): a row, table or metadata lock left behind makes this wait
 * and fail.
 */
export async function tablesWritable(root: mysql.Connection): Promise<void> {
  await root.query('SET SESSION innodb_lock_wait_timeout = 1, lock_wait_timeout = 1');
  await root.query('START TRANSACTION');
  try {
    for (const table of ['customers', 'orders', 'numbers', 'audit_log']) {
      await root.query(`UPDATE shop.${table} SET ${table === 'numbers' ? 'n = n' : 'id = id'} LIMIT 1`);
    }
  } finally {
    await root.query('ROLLBACK');
  }
}

/** The limits with every default filled in, some replaced. */
export function testLimits(overrides: Partial<SqlLimits> = {}): SqlLimits {
  return { ...sqlServerOptions.shape.limits.parse({}), ...overrides };
}

export interface OpenedTestDatabase {
  database: SqlDatabase;
  /** Every line the engine gave the operator. */
  warnings: string[];
}

export function openTestDatabase(
  url: string,
  options: { limits?: Partial<SqlLimits>; allowPrivilegedRole?: boolean; password?: string } = {},
): OpenedTestDatabase {
  const warnings: string[] = [];
  const settings: SqlEngineSettings = {
    limits: testLimits(options.limits),
    allowPrivilegedRole: options.allowPrivilegedRole ?? false,
    warn: (message) => warnings.push(message),
  };
  const database = openMysqlDatabase({ name: 'shop', url, password: options.password }, settings);
  return { database, warnings };
}

const noCall = { signal: new AbortController().signal, progress: () => {} };

/** A `query` request as the tool sends it. */
export function queryRequest(sql: string, params?: SqlParameters, maxRows = 100): QueryRequest {
  return {
    kind: 'query',
    database: 'shop',
    sql,
    params,
    limits: { maxRows, maxBytes: 262_144, maxBlobBytes: 4096 },
  };
}

export function runRequest(
  database: SqlDatabase,
  request: QueryRequest,
  call: Parameters<SqlDatabase['run']>[1] = noCall,
): Promise<SqlOutcome> {
  return database.run(request, call);
}

/** The rows of a query that must succeed. */
export async function queryRows(database: SqlDatabase, sql: string, params?: SqlParameters): Promise<unknown[][]> {
  const outcome = await runRequest(database, queryRequest(sql, params));
  if (!outcome.ok) throw new Error(`${outcome.code}: ${outcome.message}`);
  return (JSON.parse(outcome.json) as { rows: unknown[][] }).rows;
}
