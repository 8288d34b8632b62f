import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { CreateOptions, PackageManager } from './create-options.ts';

/** What the command line gave; the rest is asked for on a terminal or takes its default. */
export interface CreateArguments {
  help: boolean;
  version: boolean;
  yes: boolean;
  given: Partial<CreateOptions>;
}

export const createUsage = `Usage: create-toolshed-server <directory> [flags]
       npm create toolshed-server <directory> -- [flags]

Makes a new MCP server project on @toolshed/mcp-core in an empty directory: two example tools, protocol tests,
a bundled bin, server.json, an .mcpb bundle and CI. On a terminal it asks for what the flags leave out.

Flags:
  --name NAME                 npm package name (default: the directory's name)
  --description TEXT          one line for registries, 100 characters at most
  --github OWNER/REPO         the GitHub repository (default: OWNER from --mcp-name, else your-github-name)
  --mcp-name NAMESPACE/NAME   MCP Registry name (default: io.github.OWNER/NAME)
  --transports LIST           stdio, or stdio,http (default: stdio,http)
  --destructive-example       include the example tool that asks before it deletes (default)
  --no-destructive-example    only the read-only example tool
  --package-manager npm|pnpm  (default: the one running this)
  --yes                       ask nothing; take the defaults
  --help, --version
`;

function transportsToHttp(value: string): boolean {
  const transports = new Set(value.split(',').map((part) => part.trim()));
  if (!transports.has('stdio') || [...transports].some((transport) => transport !== 'stdio' && transport !== 'http')) {
    throw new Error(`--transports "${value}": give stdio or stdio,http (stdio is always served)`);
  }
  return transports.has('http');
}

/**
 * The command line, parsed; a wrong flag throws one line.
 *
 * @example
 * parseCreateArguments(['notes', '--no-destructive-example', '--yes'], process.cwd())
 */
export function parseCreateArguments(argv: readonly string[], cwd: string): CreateArguments {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      description: { type: 'string' },
      github: { type: 'string' },
      'mcp-name': { type: 'string' },
      transports: { type: 'string' },
      'destructive-example': { type: 'boolean' },
      'no-destructive-example': { type: 'boolean' },
      'package-manager': { type: 'string' },
      yes: { type: 'boolean', short: 'y' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean' },
    },
  });
  if (positionals.length > 1) throw new Error(`one directory, not ${positionals.length}: ${positionals.join(' ')}`);
  const given: Partial<CreateOptions> = {};
  const [directory] = positionals;
  if (directory !== undefined) given.directory = resolve(cwd, directory);
  if (values.name !== undefined) given.packageName = values.name;
  if (values.description !== undefined) given.description = values.description;
  if (values.github !== undefined) given.githubRepository = values.github;
  if (values['mcp-name'] !== undefined) given.mcpName = values['mcp-name'];
  if (values.transports !== undefined) given.http = transportsToHttp(values.transports);
  if (values['destructive-example'] === true && values['no-destructive-example'] === true) {
    throw new Error('--destructive-example and --no-destructive-example: give one');
  }
  if (values['destructive-example'] === true) given.destructiveExample = true;
  if (values['no-destructive-example'] === true) given.destructiveExample = false;
  const manager = values['package-manager'];
  if (manager !== undefined) {
    if (manager !== 'npm' && manager !== 'pnpm') throw new Error(`--package-manager "${manager}": give npm or pnpm`);
    given.packageManager = manager satisfies PackageManager;
  }
  return { help: values.help === true, version: values.version === true, yes: values.yes === true, given };
}
