import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectInMemory, serviceGate } from '@toolshed/mcp-core/testing';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PostgresServer, postgresService, startPostgresServer } from './__fixtures__/postgres-server.ts';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';
import { createSshKeyPair, type SshServer, sshService, startSshServer } from './__fixtures__/ssh-server.ts';
import { createSqlServer } from './create-sql-server.ts';
import { openReadOnlyConnection, readOnlySettings } from './read-only-connection.ts';

/**
 * Every way we know to talk a "read-only" SQL server into writing, reading
 * another file, or creating one. Each row must come back as an isError result;
 * afterwards the database file is byte-identical and no file has appeared.
 */

const onlyReads = /Only SELECT-style reads are allowed/;
const oneStatement = /exactly one statement/;

let sample: SampleDatabase;
let secret: SampleDatabase;
let server: ReturnType<typeof createSqlServer>;
let client: Client;
let digestBefore: string;
let directoryBefore: string[];
let workingDirectoryBefore: string[];

const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

beforeAll(async () => {
  sample = createSampleDatabase();
  secret = createSampleDatabase('secret.db');
  const db = new Database(secret.path);
  db.exec("CREATE TABLE secrets (value TEXT); INSERT INTO secrets VALUES ('the launch codes')");
  db.close();
  digestBefore = digest(sample.path);
  directoryBefore = readdirSync(sample.directory);
  workingDirectoryBefore = readdirSync(process.cwd());
  // The time limit is not what this suite shows (query-limits.test.ts does): a generous one keeps the 300 MB
  // BLOB, which takes seconds to read on a loaded machine, from being stopped by it.
  server = createSqlServer({ databases: sample.path, limits: { timeoutMs: 300_000 } });
  client = new Client({ name: 'attacker', version: '1' });
  await connectInMemory(server, client);
});

afterAll(async () => {
  await client.close();
  await server.close();
  sample.remove();
  secret.remove();
});

async function query(sql: string) {
  return (await client.callTool({ name: 'query', arguments: { sql } })) as {
    content: { type: string; text: string }[];
    isError?: boolean;
  };
}

const vacuumTarget = () => join(sample.directory, 'copy.db');

// [attack, sql, what the refusal must say]
const attacks: [string, () => string, RegExp][] = [
  ['second statement after a read', () => 'SELECT 1; DROP TABLE customers', oneStatement],
  ['write after a read', () => "SELECT * FROM customers; INSERT INTO customers (name) VALUES ('x')", oneStatement],
  ['statement after a line comment', () => 'SELECT 1; -- harmless\nDELETE FROM orders', oneStatement],
  ['statement after a block comment', () => 'SELECT 1 /* ; */; DROP TABLE customers', oneStatement],
  ['semicolon inside a string, then a write', () => "SELECT ';'; DROP TABLE customers", oneStatement],
  ['doubled quotes hiding a statement', () => "SELECT 'it''s'; DELETE FROM orders --'", oneStatement],
  ['VALUES then a write', () => 'VALUES (1); DROP TABLE orders', oneStatement],
  ['CTE with INSERT', () => "WITH x AS (SELECT 1) INSERT INTO audit VALUES ('a', 'b')", onlyReads],
  ['CTE with UPDATE', () => "WITH x AS (SELECT 1) UPDATE customers SET name = 'pwned'", onlyReads],
  ['CTE with DELETE', () => 'WITH x AS (SELECT 1) DELETE FROM orders', onlyReads],
  ['DML inside a CTE', () => 'WITH x AS (DELETE FROM orders RETURNING *) SELECT * FROM x', /syntax error/],
  ['DML in a subquery', () => 'SELECT * FROM (DELETE FROM orders RETURNING *)', /syntax error/],
  ['INSERT … RETURNING, which returns rows', () => "INSERT INTO audit VALUES ('a', 'b') RETURNING *", onlyReads],
  ['REPLACE', () => "REPLACE INTO customers (id, name) VALUES (1, 'pwned')", onlyReads],
  [
    'UPSERT',
    () => "INSERT INTO customers (id, name) VALUES (1, 'x') ON CONFLICT (id) DO UPDATE SET name = 'pwned'",
    onlyReads,
  ],
  [
    'insert that would fire a trigger',
    () => "INSERT INTO orders (customer_id, total, placed_at) VALUES (1, 1, 'now')",
    onlyReads,
  ],
  ['DROP TRIGGER', () => 'DROP TRIGGER orders_audit', onlyReads],
  ['ATTACH another file', () => `ATTACH DATABASE '${secret.path}' AS other`, onlyReads],
  ['ATTACH after a comment', () => `-- just a read\nATTACH '${secret.path}' AS other`, onlyReads],
  ['ATTACH a URI filename', () => `ATTACH 'file:${secret.path}?mode=ro' AS other`, onlyReads],
  [
    'read from a file that an ATTACH would have opened',
    () => 'SELECT * FROM other.secrets',
    /no such table: other.secrets/,
  ],
  ['DETACH', () => 'DETACH DATABASE main', onlyReads],
  ['VACUUM INTO a new file', () => `VACUUM INTO '${vacuumTarget()}'`, onlyReads],
  ['VACUUM', () => 'VACUUM', onlyReads],
  ['PRAGMA journal_mode = WAL', () => 'PRAGMA journal_mode = WAL', onlyReads],
  ['PRAGMA writable_schema = ON', () => 'PRAGMA writable_schema = ON', onlyReads],
  ['PRAGMA query_only = 0, applied at prepare time', () => 'PRAGMA query_only = 0', onlyReads],
  ['PRAGMA query_only = 0 behind a block comment', () => '/* read */ PRAGMA query_only = 0', onlyReads],
  ['PRAGMA trusted_schema = ON', () => 'PRAGMA trusted_schema = ON', onlyReads],
  ['PRAGMA mmap_size, which SQLite calls a read-only reader', () => 'PRAGMA mmap_size = 1000000', onlyReads],
  ['write after PRAGMA query_only = 0 was tried', () => "INSERT INTO audit VALUES ('a', 'b')", onlyReads],
  ['load_extension()', () => "SELECT load_extension('/tmp/evil.so')", /not authorized/],
  ['load_extension() with an entry point', () => "SELECT load_extension('libc.so.6', 'system')", /not authorized/],
  ['load_extension() in a union', () => "SELECT 1 UNION ALL SELECT load_extension('/tmp/evil.so')", /not authorized/],
  ['writefile()', () => "SELECT writefile('/tmp/pwned', 'x')", /no such function: writefile/],
  ['readfile()', () => "SELECT readfile('/etc/passwd')", /no such function: readfile/],
  ['CREATE TEMP TABLE', () => 'CREATE TEMP TABLE t (x)', onlyReads],
  ['CREATE TEMP VIEW', () => 'CREATE TEMP VIEW v AS SELECT 1', onlyReads],
  ['CREATE TEMP TRIGGER', () => 'CREATE TEMP TRIGGER t AFTER INSERT ON orders BEGIN SELECT 1; END', onlyReads],
  ['CREATE TABLE', () => 'CREATE TABLE pwned (x)', onlyReads],
  ['ALTER TABLE', () => 'ALTER TABLE customers ADD COLUMN pwned TEXT', onlyReads],
  ['DROP TABLE', () => 'DROP TABLE customers', onlyReads],
  ['BEGIN IMMEDIATE', () => 'BEGIN IMMEDIATE', onlyReads],
  ['SAVEPOINT', () => 'SAVEPOINT s', onlyReads],
  ['ANALYZE, which writes sqlite_stat1', () => 'ANALYZE', onlyReads],
  ['REINDEX', () => 'REINDEX', onlyReads],
  ['EXPLAIN of a write', () => 'EXPLAIN DELETE FROM orders', onlyReads],
  ['fullwidth look-alike SELECT', () => 'ＳＥＬＥＣＴ 1; DROP TABLE customers', onlyReads],
  ['Cyrillic look-alike SELECT', () => 'ЅELECT * FROM customers', onlyReads],
  ['zero-width space before DELETE', () => '\u200bDELETE FROM orders', onlyReads],
  ['NUL byte hiding a statement', () => 'SELECT 1\u0000; DROP TABLE customers', /NUL character/],
  [
    'fts3_tokenizer() pointer overwrite',
    () => "SELECT fts3_tokenizer('simple', x'4141414141414141')",
    /fts3tokenize|not authorized|SQLite error|no such function/i,
  ],
  [
    'write hidden behind 90 KB of comment',
    () => `SELECT 1 /*${'x'.repeat(90_000)}*/; DELETE FROM orders`,
    oneStatement,
  ],
  ['SQL longer than the cap', () => `SELECT 1${' '.repeat(200_000)}`, /sql.*(too big|at most|<=)/i],
  ["a value past SQLite's 1 GB length limit", () => 'SELECT length(randomblob(1100000000))', /string or blob too big/],
];

describe('SQL attack suite: every statement is refused or fails, nothing is written', () => {
  it.each(attacks)('%s', async (_attack, sql, refusal) => {
    const result = await query(sql());
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(refusal);
  });

  it('reports a 300 MB BLOB by its length, without sending it, and keeps answering', async () => {
    const result = await query('SELECT zeroblob(300000000) AS huge, 1 AS after');
    expect(result.isError, result.content[0]?.text).toBeUndefined();
    expect(JSON.parse(result.content[0]?.text ?? '').rows).toEqual([
      [{ type: 'blob', bytes: 300_000_000, base64: null }, 1],
    ]);
    expect(result.content[0]?.text.length).toBeLessThan(500);
  });

  it('leaves the file byte-identical, creates no file, and keeps the connection read-only', async () => {
    const counts = await query(
      'SELECT (SELECT count(*) FROM customers), (SELECT count(*) FROM orders), (SELECT count(*) FROM audit), (SELECT name FROM customers WHERE id = 1)',
    );
    expect(JSON.parse(counts.content[0]?.text ?? '').rows).toEqual([[3, 250, 0, 'Aroha']]);
    const settings = await query(
      'SELECT query_only, trusted_schema, temp_store FROM pragma_query_only, pragma_trusted_schema, pragma_temp_store',
    );
    expect(JSON.parse(settings.content[0]?.text ?? '').rows).toEqual([Object.values(readOnlySettings)]);
    const attached = await query('SELECT name FROM pragma_database_list');
    expect(JSON.parse(attached.content[0]?.text ?? '').rows).toEqual([['main']]);
    expect(digest(sample.path)).toBe(digestBefore);
    expect(readdirSync(sample.directory)).toEqual(directoryBefore);
    expect(readdirSync(process.cwd())).toEqual(workingDirectoryBefore);
  });
});

describe('the connection behind the gate', () => {
  it.each([
    ["INSERT INTO audit VALUES ('a', 'b')"],
    ["UPDATE customers SET name = 'x'"],
    ['DELETE FROM orders'],
    ['CREATE TABLE t (x)'],
    ['DROP TABLE audit'],
    [`VACUUM INTO '/tmp/toolshed-should-not-exist-${process.pid}.db'`],
  ])('refuses %s even when run directly', (sql) => {
    const connection = openReadOnlyConnection(sample.path, 100);
    try {
      expect(() => connection.prepare(sql).run()).toThrow(/readonly|read-only|query_only|not authorized/i);
    } finally {
      connection.close();
    }
    expect(digest(sample.path)).toBe(digestBefore);
  });
});

/**
 * export_query writes, but only new files inside the export directory. Every
 * way we know to make it write elsewhere, replace a file or write what the
 * gate refuses is an isError; afterwards the export directory holds only
 * what it held, nothing appeared outside it, and the database is unchanged.
 */
describe('export attack suite: nothing is written outside the export directory or over a file', () => {
  let root: string;
  let exportDirectory: string;
  let outside: string;
  let exportServer: ReturnType<typeof createSqlServer>;
  let exportClient: Client;
  let exportDirectoryBefore: string[];

  const listing = (directory: string): string[] =>
    readdirSync(directory, { recursive: true, withFileTypes: true })
      .map(
        (entry) =>
          `${join(entry.parentPath, entry.name)}${entry.isSymbolicLink() ? ` -> ${readlinkSync(join(entry.parentPath, entry.name))}` : ''}`,
      )
      .sort();

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'toolshed-sql-export-attacks-'));
    exportDirectory = join(root, 'exports');
    outside = join(root, 'outside');
    mkdirSync(exportDirectory);
    mkdirSync(outside);
    writeFileSync(join(exportDirectory, 'existing.csv'), 'keep me\n');
    writeFileSync(join(outside, 'victim.csv'), 'keep me too\n');
    symlinkSync(outside, join(exportDirectory, 'escape'));
    symlinkSync(join(outside, 'planted.csv'), join(exportDirectory, 'dangling.csv'));
    symlinkSync(join(outside, 'victim.csv'), join(exportDirectory, 'victim-link.csv'));
    exportDirectoryBefore = listing(root);
    exportServer = createSqlServer({ databases: sample.path, exportDirectory });
    exportClient = new Client({ name: 'attacker', version: '1' });
    await connectInMemory(exportServer, exportClient);
  });

  afterAll(async () => {
    await exportClient.close();
    await exportServer.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function exportTo(file: string, sql = 'SELECT * FROM customers') {
    return (await exportClient.callTool({ name: 'export_query', arguments: { sql, format: 'csv', file } })) as {
      content: { type: string; text: string }[];
      isError?: boolean;
    };
  }

  // [attack, file, sql, what the refusal must say]
  const exportAttacks: [string, () => string, string | undefined, RegExp][] = [
    ['path traversal with ..', () => '../outside/stolen.csv', undefined, /has a "\.\." part/],
    ['traversal hidden in a subdirectory', () => 'escape/../../stolen.csv', undefined, /has a "\.\." part/],
    ['traversal with backslashes', () => '..\\stolen.csv', undefined, /has a "\.\." part/],
    ['an absolute path outside', () => join(outside, 'stolen.csv'), undefined, /is outside the export directory/],
    ['an absolute path to a system file', () => '/etc/passwd', undefined, /is outside the export directory/],
    ['the home directory', () => '~/stolen.csv', undefined, /is outside the export directory/],
    [
      'a symbolic link in the export directory to a directory outside',
      () => 'escape/stolen.csv',
      undefined,
      /leads outside the export directory through a symbolic link/,
    ],
    ['a dangling link to a file outside', () => 'dangling.csv', undefined, /already exists/],
    ['a link to an existing file outside', () => 'victim-link.csv', undefined, /already exists/],
    ['an existing file', () => 'existing.csv', undefined, /already exists, and exports never replace a file/],
    ['the export directory itself', () => '.', undefined, /already exists/],
    ['a directory name', () => 'reports/', undefined, /names a directory/],
    ['a NUL character', () => 'a\u0000.csv', undefined, /NUL character/],
    ['a name longer than a file system takes', () => `${'x'.repeat(300)}.csv`, undefined, /longer than 255 bytes/],
    ['a Windows path', () => 'C:\\stolen.csv', undefined, /Windows path/],
    ['a statement the gate refuses', () => 'refused.csv', 'PRAGMA query_only = 0', onlyReads],
    ['two statements', () => 'two.csv', 'SELECT 1; DROP TABLE customers', oneStatement],
    ['a write', () => 'write.csv', "INSERT INTO audit VALUES ('a', 'b') RETURNING *", onlyReads],
    ['a write in a CTE', () => 'cte.csv', 'WITH x AS (SELECT 1) DELETE FROM orders', onlyReads],
    ['ATTACH of another file', () => 'attach.csv', `ATTACH DATABASE '${join(tmpdir(), 'x.db')}' AS other`, onlyReads],
    ['VACUUM INTO a file', () => 'vacuum.csv', `VACUUM INTO '${join(tmpdir(), 'x.db')}'`, onlyReads],
  ];

  it.each(exportAttacks)('%s', async (_attack, file, sql, refusal) => {
    const result = await exportTo(file(), sql);
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(refusal);
  });

  it('leaves the export directory, the directory outside and the database as they were', async () => {
    expect(listing(root)).toEqual(exportDirectoryBefore);
    expect(readFileSync(join(exportDirectory, 'existing.csv'), 'utf8')).toBe('keep me\n');
    expect(readFileSync(join(outside, 'victim.csv'), 'utf8')).toBe('keep me too\n');
    expect(digest(sample.path)).toBe(digestBefore);
    // And it still writes where it may.
    const allowed = await exportTo('allowed.csv');
    expect(allowed.isError, allowed.content[0]?.text).toBeUndefined();
    expect(readdirSync(exportDirectory)).toContain('allowed.csv');
  });
});

describe.runIf(serviceGate(sshService, it) && serviceGate(postgresService, it))(
  'SSH tunnel attack suite: a bastion that cannot prove itself gets nothing, and no password is taken',
  () => {
    let ssh: SshServer;
    let postgres: PostgresServer;

    beforeAll(async () => {
      [ssh, postgres] = await Promise.all([startSshServer(), startPostgresServer()]);
    }, 180_000);

    afterAll(async () => {
      await Promise.all([ssh?.stop(), postgres?.stop()]);
    });

    const logins = () => ssh.log().split('Accepted publickey').length - 1;
    const knownHosts = (name: string, lines: string[]) => {
      const file = join(ssh.directory, name);
      writeFileSync(file, `${lines.join('\n')}\n`);
      return file;
    };

    /** One query through the tunnel with these settings, and how many logins and database sessions it made. */
    async function tunnelQuery(settings: { knownHostsFile?: string; keyFile?: string }) {
      const admin = await postgres.admin();
      const sessions = async () =>
        Number(
          (await admin.query("SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'toolshed-sql'"))
            .rows[0].n,
        );
      const loginsBefore = logins();
      const sessionsBefore = await sessions();
      const server = createSqlServer({
        databases: { app: postgres.url('reader') },
        sshBastions: { app: ssh.bastion },
        sshKeys: { app: settings.keyFile ?? ssh.clientKey.privateKeyFile },
        sshKnownHosts: settings.knownHostsFile ?? ssh.knownHostsFile,
      });
      const client = new Client({ name: 'attacker', version: '1' });
      await connectInMemory(server, client);
      try {
        const result = await client.callTool({ name: 'query', arguments: { sql: 'SELECT 1 AS one' } });
        const text = (result.content as { text?: string }[])[0]?.text ?? '';
        return { result, text, logins: logins() - loginsBefore, sessions: (await sessions()) - sessionsBefore };
      } finally {
        await client.close();
        await server.close();
        await admin.end();
      }
    }

    it('refuses a bastion whose host key is not the one known_hosts holds (a man in the middle), before logging in', async () => {
      const impostor = createSshKeyPair(ssh.directory, 'impostor_host_key');
      const file = knownHosts('known_hosts_other_key', [`[127.0.0.1]:${ssh.port} ${impostor.publicKey}`]);
      const attempt = await tunnelQuery({ knownHostsFile: file });
      expect(attempt.result.isError).toBe(true);
      expect(attempt.text).toContain(`the bastion ${ssh.bastion} showed a host key (ssh-ed25519 SHA256:`);
      expect(attempt.text).toContain(`does not hold for [127.0.0.1]:${ssh.port}, so nothing was sent to it`);
      expect(attempt.logins).toBe(0);
      expect(attempt.sessions).toBe(0);
    });

    it.each([
      ['the key under another port', () => [`[127.0.0.1]:${ssh.port + 1} ${ssh.hostKey.publicKey}`]],
      ['the key under the bare host (port 22)', () => [`127.0.0.1 ${ssh.hostKey.publicKey}`]],
      ['the host excluded by a negated pattern', () => [`*,![127.0.0.1]:${ssh.port} ${ssh.hostKey.publicKey}`]],
      ['an empty known_hosts', () => []],
    ])('refuses a bastion known_hosts has no key for: %s', async (_case, lines) => {
      const attempt = await tunnelQuery({ knownHostsFile: knownHosts('known_hosts_elsewhere', lines()) });
      expect(attempt.result.isError).toBe(true);
      expect(attempt.text).toContain(`has no key in`);
      expect(attempt.logins).toBe(0);
    });

    it('refuses a bastion that offers no key of the types known_hosts holds for it', async () => {
      const ecdsa = join(ssh.directory, 'ecdsa_host_key');
      spawnSync('/usr/bin/ssh-keygen', ['-q', '-t', 'ecdsa', '-N', '', '-f', ecdsa]);
      const line = `[127.0.0.1]:${ssh.port} ${readFileSync(`${ecdsa}.pub`, 'utf8').trim()}`;
      const attempt = await tunnelQuery({ knownHostsFile: knownHosts('known_hosts_ecdsa', [line]) });
      expect(attempt.result.isError).toBe(true);
      expect(attempt.text).toContain('offers none of the host key types');
      expect(attempt.logins).toBe(0);
    });

    it('refuses a host key marked @revoked, even when another line trusts it', async () => {
      const file = knownHosts('known_hosts_revoked', [
        `[127.0.0.1]:${ssh.port} ${ssh.hostKey.publicKey}`,
        `@revoked [127.0.0.1]:${ssh.port} ${ssh.hostKey.publicKey}`,
      ]);
      const attempt = await tunnelQuery({ knownHostsFile: file });
      expect(attempt.result.isError).toBe(true);
      expect(attempt.text).toContain('showed a host key');
      expect(attempt.logins).toBe(0);
    });

    it('is refused with a key the bastion does not authorize, and says so', async () => {
      const stranger = createSshKeyPair(ssh.directory, 'stranger_key');
      const attempt = await tunnelQuery({ keyFile: stranger.privateKeyFile });
      expect(attempt.result.isError).toBe(true);
      expect(attempt.text).toContain(`refused the key ${stranger.privateKeyFile} for the user ${ssh.user}`);
      expect(attempt.sessions).toBe(0);
    });

    const bin = new URL('./cli.ts', import.meta.url).pathname;
    it.each([
      ['a password in --db-ssh', ['--db-ssh', 'app=root:hunter2-secret@127.0.0.1'], /password cannot be given/],
      ['a password in --db-ssh without a name', ['--db-ssh', 'root:hunter2-secret@127.0.0.1'], /NAME=USER@HOST/],
      [
        'a --db-ssh-password flag',
        ['--db-ssh', 'app=root@127.0.0.1', '--db-ssh-password', 'hunter2-secret'],
        /--db-ssh-password/,
      ],
    ])('takes no password on the command line: %s', (_case, flags, refusal) => {
      const run = spawnSync(
        process.execPath,
        [bin, '--db', 'app=postgres://reader@127.0.0.1/app', '--db-ssh-key', `app=${ssh.clientKey.privateKeyFile}`]
          .concat(['--db-ssh-known-hosts', ssh.knownHostsFile])
          .concat(flags),
        { encoding: 'utf8', input: '' },
      );
      expect(run.status).toBe(2);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toMatch(refusal);
      expect(run.stderr).not.toContain('hunter2');
    });

    it('takes no password from the environment twin of --db-ssh either', () => {
      const run = spawnSync(process.execPath, [bin, '--db', 'app=postgres://reader@127.0.0.1/app'], {
        encoding: 'utf8',
        input: '',
        env: { ...process.env, TOOLSHED_SQL_DB_SSH: 'app=root:hunter2-secret@127.0.0.1' },
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/a password cannot be given on the command line/);
      expect(run.stderr).not.toContain('hunter2');
    });
  },
);
