/**
 * The `toolshed-dev` bin: the release steps of a project whose server is
 * built on @toolshed/mcp-core, configured by the `toolshed` field of its
 * package.json (see project-config.ts).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { buildBundles } from './build-bundles.ts';
import { writeOptionsTables } from './options-tables.ts';
import { runPackCheck } from './pack-check/run-pack-check.ts';
import { readProjectConfig } from './project-config.ts';
import { writeServerJsonFiles } from './server-json.ts';

const usage = `Usage: toolshed-dev <command> [flags]

Release steps for an MCP server on @toolshed/mcp-core, from the "toolshed" field of package.json.

Commands:
  server-json [--check]      Write server.json (the MCP Registry entry) from package.json and the bin's options
  options-table [--check]    Write the README's options table from the options schema
  mcpb [--output DIR] [--with TARBALL]...
                             Build the .mcpb bundle from the packed package (build first); DIR is bundles/ unless
                             given
  pack-check [--no-node-floor] [--with TARBALL]...
                             Pack as npm would, lint (publint, attw), install, start the bin, check server.json
                             and the .mcpb, then again on the lowest Node the engines allow; --with installs a
                             dependency's tarball alongside (one not on the registry yet)

Flags:
  --help                     Show this help
  --version                  Show the version
`;

function version(): string {
  return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/**
 * Runs one command; resolves to the exit code.
 *
 * @example
 * process.exitCode = await runDevCli(process.argv.slice(2), process.cwd());
 */
export async function runDevCli(argv: readonly string[], root: string): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      check: { type: 'boolean' },
      output: { type: 'string' },
      'no-node-floor': { type: 'boolean' },
      with: { type: 'string', multiple: true },
      help: { type: 'boolean' },
      version: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    process.stdout.write(usage);
    return 0;
  }
  if (values.version === true) {
    process.stdout.write(`${version()}\n`);
    return 0;
  }
  const [command] = positionals;
  const config = readProjectConfig(root);
  const author = config.author === undefined ? {} : { author: config.author };
  switch (command) {
    case 'server-json':
      return (await writeServerJsonFiles({ root, servers: config.servers, check: values.check === true })) > 0 ? 1 : 0;
    case 'options-table':
      return (await writeOptionsTables({ root, servers: config.servers, check: values.check === true })) > 0 ? 1 : 0;
    case 'mcpb':
      await buildBundles({
        root,
        servers: config.servers,
        output: join(root, values.output ?? 'bundles'),
        dependencyTarballs: (values.with ?? []).map((tarball) => resolve(root, tarball)),
        ...author,
      });
      return 0;
    case 'pack-check': {
      const result = await runPackCheck({
        root,
        servers: config.servers,
        skipNodeFloor: values['no-node-floor'] === true,
        dependencyTarballs: (values.with ?? []).map((tarball) => resolve(root, tarball)),
        ...author,
      });
      return result.failures.length > 0 ? 1 : 0;
    }
    default:
      process.stderr.write(
        `toolshed-dev: ${command === undefined ? 'name a command' : `no command ${command}`}; see toolshed-dev --help\n`,
      );
      return 2;
  }
}
