import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalError } from '@toolshed/mcp-core';
import { describe, expect, it } from 'vitest';
import { mysqlConnectionSettings } from './mysql-connection-options.ts';

const settingsOf = (url: string, password?: string, caFile?: string) =>
  mysqlConnectionSettings({ name: 'shop', url, password }, { caFile });

describe('mysql:// and mariadb:// URLs', () => {
  it('reads the account, server and database, and keeps the password out of the description', () => {
    const { connection, described, password } = settingsOf('mariadb://reader:p%40ss@db.internal:3307/shop');
    expect(connection).toMatchObject({
      host: 'db.internal',
      port: 3307,
      user: 'reader',
      password: 'p@ss',
      database: 'shop',
      multipleStatements: false,
      ssl: { rejectUnauthorized: true, verifyIdentity: true },
    });
    expect(connection.flags).toEqual(['-LOCAL_FILES', '-MULTI_STATEMENTS', '-MULTI_RESULTS']);
    expect(described).toBe('reader@db.internal:3307/shop');
    expect(described).not.toContain('p@ss');
    expect(password).toBe('p@ss');
  });

  it('takes the password from the environment over the URL’s', () => {
    expect(settingsOf('mysql://reader:from-url@db.internal/shop', 'from-env').connection.password).toBe('from-env');
  });

  it('verifies TLS by default, except on loopback and sockets', () => {
    expect(settingsOf('mysql://reader@db.internal/shop').connection.ssl).toEqual({
      rejectUnauthorized: true,
      verifyIdentity: true,
    });
    expect(settingsOf('mysql://reader@127.0.0.1/shop').connection.ssl).toBeUndefined();
    expect(settingsOf('mysql://reader@localhost/shop?socket=/run/mysqld/mysqld.sock').connection).toMatchObject({
      socketPath: '/run/mysqld/mysqld.sock',
    });
    expect(settingsOf('mysql://reader@127.0.0.1/shop?ssl-mode=VERIFY_IDENTITY').connection.ssl).toEqual({
      rejectUnauthorized: true,
    });
  });

  it('takes ssl-mode as the mysql client and sslmode as libpq spell it', () => {
    expect(settingsOf('mysql://reader@db.internal/shop?ssl-mode=DISABLED').connection.ssl).toBeUndefined();
    expect(settingsOf('mysql://reader@db.internal/shop?sslmode=require').connection.ssl).toEqual({
      rejectUnauthorized: false,
    });
    const verifyCa = settingsOf('mysql://reader@db.internal/shop?ssl-mode=VERIFY_CA').connection.ssl as {
      checkServerIdentity?: unknown;
    };
    expect(verifyCa).toMatchObject({ rejectUnauthorized: true });
    expect(typeof verifyCa.checkServerIdentity).toBe('function');
    expect(() => settingsOf('mysql://reader@db.internal/shop?ssl-mode=SOMETIMES')).toThrow(LocalError);
  });

  it('trusts a private CA given with --db-ca', () => {
    const caFile = join(mkdtempSync(join(tmpdir(), 'toolshed-ca-')), 'ca.pem');
    writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect(settingsOf('mysql://reader@db.internal/shop', undefined, caFile).connection.ssl).toMatchObject({
      rejectUnauthorized: true,
      ca: expect.stringContaining('BEGIN CERTIFICATE'),
    });
  });

  it('says which URL cannot be read without repeating it', () => {
    expect(() => settingsOf('mysql://reader:secret@[bad')).toThrow(
      /database "shop": the mysql:\/\/ URL cannot be read$/,
    );
  });
});
