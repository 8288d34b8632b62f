import { limitOption } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type VettedToolsFile, vettedToolsFile } from './vetted-tools/vetted-tools-file.ts';

type Limit = z.ZodDefault<z.ZodNumber>;

// Shapes are spelt out as types because exported schemas need declared types under isolatedDeclarations.
type SqlLimitsShape = {
  maxRows: Limit;
  maxResultBytes: Limit;
  maxBlobBytes: Limit;
  timeoutMs: Limit;
  maxConcurrentQueries: Limit;
  maxSqlLength: Limit;
  maxTables: Limit;
  maxExportRows: Limit;
  maxExportBytes: Limit;
  exportTimeoutMs: Limit;
};

type SqlServerOptionsShape = {
  databases: z.ZodUnion<readonly [z.ZodString, z.ZodRecord<z.ZodString, z.ZodString>]>;
  passwords: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
  allowPrivilegedRole: z.ZodDefault<z.ZodBoolean>;
  databaseCa: z.ZodOptional<z.ZodString>;
  sshBastions: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
  sshKeys: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
  sshPassphrases: z.ZodOptional<z.ZodRecord<z.ZodString, z.ZodString>>;
  sshKnownHosts: z.ZodOptional<z.ZodString>;
  tools: z.ZodOptional<z.ZodUnion<readonly [z.ZodString, z.ZodType<VettedToolsFile, unknown>]>>;
  toolset: z.ZodOptional<z.ZodString>;
  adHoc: z.ZodDefault<z.ZodBoolean>;
  schemaTools: z.ZodDefault<z.ZodBoolean>;
  exportDirectory: z.ZodOptional<z.ZodString>;
  limits: z.ZodPrefault<z.ZodObject<SqlLimitsShape, z.core.$strict>>;
};

/**
 * The options of `createSqlServer`, strict: an unknown or misspelt key is
 * refused with its path and the closest valid name. The bin's flags, their
 * environment twins, --help and the README's options table come from it.
 *
 * @example
 * const options = sqlServerOptions.parse({ databases: { sales: './sales.db' }, limits: { maxRows: 200 } });
 */
export const sqlServerOptions: z.ZodObject<SqlServerOptionsShape, z.core.$strict> = z.strictObject({
  databases: z.union([z.string(), z.record(z.string(), z.string())]).meta({
    description:
      'Databases to serve, read-only: SQLite paths or postgres://, mysql://, mariadb://, sqlite: URLs, or names to them; with several, tools take a `database` argument',
    flag: 'db',
    placeholder: '[NAME=]PATH|URL',
  }),
  passwords: z.record(z.string(), z.string()).optional().meta({
    description:
      'The password of database NAME (upper case, - as _), so that none has to sit in a URL; wins over one in the URL',
    flag: false,
    env: 'TOOLSHED_SQL_PASSWORD_<NAME>',
  }),
  allowPrivilegedRole: z.boolean().default(false).meta({
    description:
      'Serve through a database role that could write, read server files, run programs or signal other sessions (every read-only layer still applies)',
    flag: 'allow-privileged-role',
  }),
  databaseCa: z.string().optional().meta({
    description: "PEM file of the CA that signs the database servers' TLS certificates, for a private CA",
    flag: 'db-ca',
    placeholder: 'FILE',
  }),
  sshBastions: z.record(z.string(), z.string()).optional().meta({
    description:
      "Reach database NAME (PostgreSQL, MySQL) through an SSH tunnel via this bastion, which forwards to the URL's host and port",
    flag: 'db-ssh',
    placeholder: 'NAME=USER@HOST[:PORT]',
  }),
  sshKeys: z.record(z.string(), z.string()).optional().meta({
    description: "The private key file that logs in to database NAME's bastion (no passwords)",
    flag: 'db-ssh-key',
    placeholder: 'NAME=FILE',
  }),
  sshPassphrases: z.record(z.string(), z.string()).optional().meta({
    description: "The passphrase of database NAME's SSH key (upper case, - as _), when the key has one",
    flag: false,
    env: 'TOOLSHED_SQL_SSH_PASSPHRASE_<NAME>',
  }),
  sshKnownHosts: z.string().optional().meta({
    description:
      "The known_hosts file that must hold each bastion's host key (default ~/.ssh/known_hosts); hashed and [host]:port entries work",
    flag: 'db-ssh-known-hosts',
    placeholder: 'FILE',
  }),
  tools: z.union([z.string(), vettedToolsFile]).optional().meta({
    description:
      'Vetted queries served as tools: a JSON or YAML file of named statements with typed parameters (or its contents)',
    flag: 'tools',
    placeholder: 'FILE',
  }),
  toolset: z.string().optional().meta({
    description: "Serve only this toolset's vetted tools",
    placeholder: 'NAME',
  }),
  adHoc: z.boolean().default(true).meta({
    description: 'Remove query and explain_query: the model runs only vetted tools',
    flag: 'no-ad-hoc',
  }),
  schemaTools: z.boolean().default(true).meta({
    description: 'Remove list_tables, describe_table and the schema resources',
    flag: 'no-schema-tools',
  }),
  exportDirectory: z.string().optional().meta({
    description:
      'The only directory export_query may write to, never over an existing file; without it there is no export_query',
    flag: 'export-dir',
    placeholder: 'DIR',
  }),
  limits: z
    .strictObject({
      maxRows: limitOption(1000, 'Rows a query may return at most; the `max_rows` argument can only lower it'),
      maxResultBytes: limitOption(262_144, 'Bytes of JSON a query result may hold at most'),
      maxBlobBytes: limitOption(4096, 'BLOBs larger than this are returned as their length only'),
      timeoutMs: limitOption(10_000, 'Milliseconds a statement may run before it is stopped'),
      maxConcurrentQueries: limitOption(
        8,
        'Statements running at once: query processes for SQLite, connections per PostgreSQL or MySQL database',
      ),
      maxSqlLength: limitOption(100_000, 'Characters of SQL a call may send'),
      maxTables: limitOption(200, 'Tables and views a list_tables call returns at most; its offset argument pages on'),
      maxExportRows: limitOption(10_000_000, 'Rows export_query may write at most; a larger result writes no file'),
      maxExportBytes: limitOption(
        1_073_741_824,
        'Bytes export_query may write at most; a larger result writes no file',
      ),
      exportTimeoutMs: limitOption(600_000, 'Milliseconds an export may run before it is stopped (and writes no file)'),
    })
    .prefault({})
    .meta({ flagPrefix: '', description: 'The caps every call is held to' }),
});

/** How a SQL server is set up: which databases, and the limits every call keeps to. */
export type SqlServerOptions = z.input<typeof sqlServerOptions>;

/** The limits with every default filled in. */
export type SqlLimits = z.output<typeof sqlServerOptions>['limits'];
