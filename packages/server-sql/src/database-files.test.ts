import { describe, expect, it } from 'vitest';
import { checkDatabaseSources, databaseSource, parseDatabaseSpecs } from './database-files.ts';
import { passwordsFromEnvironment, passwordVariable } from './sql-cli.ts';

describe('database specs', () => {
  it.each([
    [['data/sales.db'], { sales: 'data/sales.db' }],
    [
      ['app=postgres://reader:pw@db.example.com/app?sslmode=require'],
      { app: 'postgres://reader:pw@db.example.com/app?sslmode=require' },
    ],
    [
      ['postgresql://reader@db.example.com:6432/warehouse?sslmode=verify-full'],
      { warehouse: 'postgresql://reader@db.example.com:6432/warehouse?sslmode=verify-full' },
    ],
    [['mariadb://reader@127.0.0.1/shop'], { shop: 'mariadb://reader@127.0.0.1/shop' }],
    [['sqlite:///srv/data/hr.db'], { hr: 'sqlite:///srv/data/hr.db' }],
  ])('names %j', (specs, expected) => {
    expect(parseDatabaseSpecs(specs)).toEqual(expected);
  });

  it.each([
    ['postgres://h/app', 'postgres'],
    ['postgresql://h/app', 'postgres'],
    ['mysql://h/app', 'mysql'],
    ['mariadb://h/app', 'mysql'],
    ['sqlite:///srv/app.db', 'sqlite'],
    ['./app.db', 'sqlite'],
  ])('sends %s to the %s engine', (location, engine) => {
    expect(databaseSource('app', location).engine).toBe(engine);
  });

  it('refuses an unknown URL scheme by its scheme alone, never showing the rest', () => {
    const check = () => checkDatabaseSources({ app: 'postgress://reader:hunter2@db.example.com/app' });
    expect(check).toThrow(/"postgress:\/\/" is not a database URL this server knows/);
    expect(check).not.toThrow(/hunter2/);
    expect(check).toThrow(expect.objectContaining({ code: 'config_invalid' }));
  });

  it('reads TOOLSHED_SQL_PASSWORD_<NAME> for each database, upper case with - as _', () => {
    expect(passwordVariable('sales-eu')).toBe('TOOLSHED_SQL_PASSWORD_SALES_EU');
    expect(
      passwordsFromEnvironment(
        { databases: { 'sales-eu': 'postgres://r@h/s', hr: 'x.db' } },
        { TOOLSHED_SQL_PASSWORD_SALES_EU: 'secret', TOOLSHED_SQL_PASSWORD_OTHER: 'unused' },
      ),
    ).toEqual({ 'sales-eu': 'secret' });
  });
});
