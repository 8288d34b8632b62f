/**
 * Writes each server package's server.json — its entry in the MCP Registry —
 * from its package.json (name, version, npm identifier) and its bin's options
 * (the environment variables a client may set). `--check` writes nothing and
 * fails when a file is out of date; the pack check runs it and validates the
 * files against the registry's schema.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { type OptionField, type ServerPackage, serverCli, serverPackages } from './server-packages.ts';

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

async function serverJson(server: ServerPackage): Promise<string> {
  const root = new URL(`../${server.directory}/`, import.meta.url);
  const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
    name: string;
    version: string;
    mcpName: string;
    homepage: string;
  };
  const cli = await serverCli(server);
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
for (const server of serverPackages) {
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
