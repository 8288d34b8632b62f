import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSampleDatabase, type SampleDatabase } from './__fixtures__/sample-database.ts';
import { createSqlServer } from './create-sql-server.ts';
import { sqlServerOptions } from './sql-server-options.ts';

let sample: SampleDatabase;

beforeAll(() => {
  sample = createSampleDatabase();
});

afterAll(() => {
  sample.remove();
});

describe('sql server options', () => {
  it.each([
    ['one path', { databases: 'shop.db' }],
    ['named paths', { databases: { shop: 'shop.db', archive: 'archive.db' } }],
    [
      'every limit',
      {
        databases: 'shop.db',
        limits: {
          maxRows: 10,
          maxResultBytes: 2000,
          maxBlobBytes: 16,
          timeoutMs: 1000,
          maxConcurrentQueries: 1,
          maxSqlLength: 500,
        },
      },
    ],
  ])('accepts %s', (_, options) => {
    expect(sqlServerOptions.parse(options)).toMatchObject(options);
  });

  it('fills in every default limit', () => {
    expect(sqlServerOptions.parse({ databases: 'shop.db' }).limits).toEqual({
      maxRows: 1000,
      maxResultBytes: 262_144,
      maxBlobBytes: 4096,
      timeoutMs: 10_000,
      maxConcurrentQueries: 8,
      maxSqlLength: 100_000,
      maxTables: 200,
      maxExportRows: 10_000_000,
      maxExportBytes: 1_073_741_824,
      exportTimeoutMs: 600_000,
    });
  });

  it('starts a server from every option', async () => {
    const server = createSqlServer({
      databases: { shop: sample.path },
      exportDirectory: sample.directory,
      limits: {
        maxRows: 10,
        maxResultBytes: 2000,
        maxBlobBytes: 16,
        timeoutMs: 1000,
        maxConcurrentQueries: 1,
        maxSqlLength: 500,
        maxTables: 20,
        maxExportRows: 1000,
        maxExportBytes: 100_000,
        exportTimeoutMs: 5000,
      },
    });
    await server.close();
  });

  it.each([
    [
      'a misspelt limit',
      { limits: { maxRowz: 5 } },
      /unknown option "maxRowz" at limits\.maxRowz; did you mean "maxRows"\?/,
    ],
    [
      'a limit outside limits',
      { timeoutMS: 5 },
      /unknown option "timeoutMS" at timeoutMS; did you mean "limits\.timeoutMs"\?/,
    ],
    [
      'a key of another server',
      { allowedDirectories: ['/'] },
      /unknown option "allowedDirectories" at allowedDirectories$/,
    ],
    [
      'a limit of the wrong type',
      { limits: { maxRows: '5' } },
      /options: limits\.maxRows: must be a whole number of at least 1/,
    ],
    ['databases of the wrong type', { databases: ['shop.db'] }, /options: databases: Invalid input/],
    [
      'a path of the wrong type',
      { databases: { shop: 5 } },
      /options: databases\.shop: Invalid input: expected string, received number/,
    ],
    ['a limit below 1', { limits: { maxRows: 0 } }, /limits\.maxRows: must be a whole number of at least 1/],
    ['a fractional limit', { limits: { timeoutMs: 1.5 } }, /limits\.timeoutMs: must be a whole number of at least 1/],
  ])('refuses %s with where it is', (_, options, message) => {
    const create = () => createSqlServer({ databases: sample.path, ...options } as never);
    expect(create).toThrow(message);
    expect(create).toThrow(expect.objectContaining({ code: 'config_invalid' }));
  });
});
