/**
 * Fills what the command line left out: asked on a terminal (unless `--yes`),
 * else the default. A directory has no default.
 */
import { basename } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { binName, type CreateOptions, defaultMcpName, type PackageManager } from './create-options.ts';

export interface Asker {
  ask(question: string, fallback: string): Promise<string>;
  close(): void;
}

/** Questions on the terminal; an empty answer takes the default shown in brackets. */
export function terminalAsker(): Asker {
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  return {
    async ask(question, fallback) {
      const answer = (await terminal.question(`${question} (${fallback}): `)).trim();
      return answer === '' ? fallback : answer;
    },
    close: () => terminal.close(),
  };
}

/** The package manager that runs this (`npm create`, `pnpm create`), from the environment it sets. */
export function runningPackageManager(env: NodeJS.ProcessEnv): PackageManager {
  return env.npm_config_user_agent?.startsWith('pnpm/') === true ? 'pnpm' : 'npm';
}

export async function completeCreateOptions(
  given: Partial<CreateOptions>,
  asker: Asker | undefined,
  env: NodeJS.ProcessEnv,
): Promise<CreateOptions> {
  const ask = async (question: string, fallback: string) =>
    asker === undefined ? fallback : asker.ask(question, fallback);
  let directory = given.directory;
  if (directory === undefined) {
    if (asker === undefined) throw new Error('name a directory: create-toolshed-server <directory>');
    directory = await asker.ask('Directory', 'my-mcp-server');
  }
  const packageName = given.packageName ?? (await ask('npm package name', basename(directory)));
  const bin = binName(packageName);
  const description = given.description ?? (await ask('Description (100 characters at most)', `${bin}: an MCP server`));
  const ownerFromName = /^io\.github\.([^/]+)\//.exec(given.mcpName ?? '')?.[1];
  const githubRepository =
    given.githubRepository ?? (await ask('GitHub repository', `${ownerFromName ?? 'your-github-name'}/${bin}`));
  const mcpName = given.mcpName ?? (await ask('MCP Registry name', defaultMcpName(githubRepository, packageName)));
  const http = given.http ?? (await ask('Transports: stdio, or stdio,http', 'stdio,http')).includes('http');
  const destructiveExample =
    given.destructiveExample ?? !/^n/i.test(await ask('Include the destructive example tool? y/n', 'y'));
  const packageManager =
    given.packageManager ?? ((await ask('Package manager: npm or pnpm', runningPackageManager(env))) as PackageManager);
  return {
    directory,
    packageName,
    description,
    githubRepository,
    mcpName,
    http,
    destructiveExample,
    packageManager: packageManager === 'pnpm' ? 'pnpm' : 'npm',
  };
}
