/**
 * A server package's `server.json`, its entry in the MCP Registry: name,
 * version and npm identifier from its package.json, and the environment
 * variables a client may set from its bin's options.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readPackageManifest, repositoryWebUrl } from './package-manifest.ts';
import { loadServerCli, type OptionField, type ServerPackage } from './server-package.ts';

/** The registry schema revision the entries are written for. */
export const serverJsonSchemaUrl = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

function environmentVariables(fields: readonly OptionField[]): Record<string, unknown>[] {
  return fields
    .filter((field) => field.env !== undefined)
    .map((field) => ({
      name: field.env,
      description: field.description,
      ...(field.required ? { isRequired: true } : {}),
      // A setting with no flag comes from the environment alone: a secret.
      ...(field.flag === undefined ? { isSecret: true } : {}),
      // A `no-` option is off until set, whatever the option's own default.
      ...(field.negated
        ? { default: 'false' }
        : ['string', 'number', 'boolean'].includes(typeof field.defaultValue)
          ? { default: String(field.defaultValue) }
          : {}),
      ...(field.choices === undefined ? {} : { choices: [...field.choices] }),
    }));
}

/**
 * The text of a server package's `server.json`.
 *
 * @example
 * await serverJson(process.cwd(), { directory: '.', description: 'Notes', displayName: 'Notes', cli: ['src/notes-cli.ts', 'notesCli'] });
 */
export async function serverJson(root: string, server: ServerPackage): Promise<string> {
  const manifest = readPackageManifest(join(root, server.directory));
  if (manifest.mcpName === undefined) throw new Error(`${server.directory}/package.json has no mcpName`);
  const cli = await loadServerCli(root, server);
  const url = repositoryWebUrl(manifest);
  const entry = {
    $schema: serverJsonSchemaUrl,
    name: manifest.mcpName,
    description: server.description,
    version: manifest.version,
    repository: {
      url,
      source: new URL(url).hostname.replace(/\.(com|org)$/, ''),
      ...(manifest.repository.directory === undefined ? {} : { subfolder: manifest.repository.directory }),
    },
    websiteUrl: manifest.homepage,
    packages: [
      {
        registryType: 'npm',
        identifier: manifest.name,
        version: manifest.version,
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        ...(cli === undefined ? {} : { environmentVariables: environmentVariables(cli.fields) }),
      },
    ],
  };
  return `${JSON.stringify(entry, null, 2)}\n`;
}

export interface WriteServerJsonOptions {
  root: string;
  servers: readonly ServerPackage[];
  /** Write nothing; report each file that is out of date. */
  check?: boolean;
  /** The command that brings the files up to date, named when one is out of date. */
  command?: string;
}

/**
 * Writes (or with `check`, checks) each server's `server.json`; returns the
 * number of files out of date when checking.
 */
export async function writeServerJsonFiles(options: WriteServerJsonOptions): Promise<number> {
  const { root, servers, check = false, command = 'toolshed-dev server-json' } = options;
  let stale = 0;
  for (const server of servers) {
    const path = join(root, server.directory, 'server.json');
    const text = await serverJson(root, server);
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {}
    // Compared as data: the formatter may lay the JSON out differently.
    if (current !== '' && JSON.stringify(JSON.parse(current)) === JSON.stringify(JSON.parse(text))) continue;
    if (check) {
      process.stderr.write(`${join(server.directory, 'server.json')} is out of date: run ${command}\n`);
      stale++;
    } else {
      writeFileSync(path, text);
      process.stdout.write(`${join(server.directory, 'server.json')} written\n`);
    }
  }
  return stale;
}
