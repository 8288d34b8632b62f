/**
 * Writes each server package's server.json — its entry in the MCP Registry —
 * from its package.json (name, version, npm identifier) and its bin's options
 * (the environment variables a client may set). `--check` writes nothing and
 * fails when a file is out of date; the pack check runs it and validates the
 * files against the registry's schema.
 */
import { readFileSync, writeFileSync } from 'node:fs';

interface ServerPackage {
  directory: string;
  /** Shown in registries: the registry allows 100 characters. */
  description: string;
  /** The bin definition, for the environment variables; the host takes a config file instead. */
  cli?: [module: string, exportName: string];
}

const servers: readonly ServerPackage[] = [
  {
    directory: 'packages/server-sql',
    description: 'Read-only SQL over SQLite files that no statement can talk into writing',
    cli: ['src/sql-cli.ts', 'sqlCli'],
  },
  {
    directory: 'packages/server-filesystem',
    description: 'Files in the directories you allow, path-guarded, with read-only grants',
    cli: ['src/filesystem-cli.ts', 'filesystemCli'],
  },
  {
    directory: 'packages/server-weather',
    description: 'Weather, forecasts and air quality from Open-Meteo, and US alerts from NWS',
    cli: ['src/weather-cli.ts', 'weatherCli'],
  },
  {
    directory: 'packages/server-email',
    description: 'Email that asks before it sends, to allowed recipients only',
    cli: ['src/email-cli.ts', 'emailCli'],
  },
  {
    directory: 'packages/server-image',
    description: 'Image info and one-pass edits on sharp, returning images a model can see',
    cli: ['src/image-cli.ts', 'imageCli'],
  },
  { directory: 'apps/host', description: 'Many MCP servers behind one endpoint, with approvals and an audit log' },
];

interface OptionField {
  path: string[];
  flag: string | undefined;
  env: string | undefined;
  description: string;
  defaultValue: unknown;
  required: boolean;
  choices: readonly string[] | undefined;
}

function environmentVariables(fields: readonly OptionField[]): Record<string, unknown>[] {
  return fields
    .filter((field) => field.env !== undefined)
    .map((field) => ({
      name: field.env,
      description: field.description,
      ...(field.required ? { isRequired: true } : {}),
      // A setting with no flag comes from the environment alone: a secret.
      ...(field.flag === undefined ? { isSecret: true } : {}),
      ...(['string', 'number', 'boolean'].includes(typeof field.defaultValue)
        ? { default: String(field.defaultValue) }
        : {}),
      ...(field.choices === undefined ? {} : { choices: [...field.choices] }),
    }));
}

async function serverJson(server: ServerPackage): Promise<string> {
  const root = new URL(`../${server.directory}/`, import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
    name: string;
    version: string;
    mcpName: string;
    homepage: string;
  };
  const cli = server.cli === undefined ? undefined : (await import(new URL(server.cli[0], root).href))[server.cli[1]];
  const entry = {
    $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
    name: manifest.mcpName,
    description: server.description,
    version: manifest.version,
    repository: { url: 'https://github.com/toolshed/toolshed', source: 'github', subfolder: server.directory },
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

const check = process.argv.includes('--check');
let stale = 0;
for (const server of servers) {
  const path = new URL(`../${server.directory}/server.json`, import.meta.url);
  const text = await serverJson(server);
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {}
  // Compared as data: the formatter may lay the JSON out differently.
  if (current !== '' && JSON.stringify(JSON.parse(current)) === JSON.stringify(JSON.parse(text))) continue;
  if (check) {
    process.stderr.write(`${server.directory}/server.json is out of date: run node scripts/write-server-json.ts\n`);
    stale++;
  } else {
    writeFileSync(path, text);
    process.stdout.write(`${server.directory}/server.json written\n`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
