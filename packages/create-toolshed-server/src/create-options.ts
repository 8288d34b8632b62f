/**
 * What a new project is made of, and what is refused: each problem is one
 * line that says what to give instead.
 */
import { existsSync, readdirSync } from 'node:fs';
import validatePackageName from 'validate-npm-package-name';

export type PackageManager = 'npm' | 'pnpm';

export interface CreateOptions {
  /** Where the project goes: a new or empty directory. */
  directory: string;
  /** The npm package name; its unscoped part names the bin. */
  packageName: string;
  /** One line for registries and the bundle: 100 characters at most. */
  description: string;
  /** `owner/name` of the GitHub repository the project will live in. */
  githubRepository: string;
  /** The MCP Registry name: `io.github.<owner>/<name>` for a GitHub owner, or a reverse-DNS namespace you own. */
  mcpName: string;
  /** Whether the bin's tests and README cover Streamable HTTP besides stdio. */
  http: boolean;
  /** Whether the example has a destructive tool that asks before it acts. */
  destructiveExample: boolean;
  packageManager: PackageManager;
}

/** The MCP Registry's limit on a server's description. */
export const descriptionLimit = 100;

/** The unscoped part of a package name: the bin's name. */
export function binName(packageName: string): string {
  return packageName.replace(/^@[^/]+\//, '');
}

/** `io.github.<owner>/<bin>` for a GitHub repository `owner/repo`. */
export function defaultMcpName(githubRepository: string, packageName: string): string {
  return `io.github.${githubRepository.split('/')[0]}/${binName(packageName)}`;
}

/**
 * What is wrong with the options, one line each; empty when a project can be
 * made of them.
 *
 * @example
 * createOptionsProblems({ ...options, packageName: 'My Server' }) // ['"My Server" is not a valid npm package name: …']
 */
export function createOptionsProblems(options: CreateOptions): string[] {
  const problems: string[] = [];
  if (existsSync(options.directory) && readdirSync(options.directory).length > 0) {
    problems.push(`${options.directory} is not empty: give a new or empty directory`);
  }
  const validity = validatePackageName(options.packageName);
  if (!validity.validForNewPackages) {
    const reason = [...(validity.errors ?? []), ...(validity.warnings ?? [])][0] ?? 'not allowed';
    problems.push(`"${options.packageName}" is not a valid npm package name: ${reason}`);
  }
  if (options.description.trim() === '' || options.description.length > descriptionLimit) {
    problems.push(
      `the description has ${options.description.length} characters: the MCP Registry takes 1 to ${descriptionLimit}`,
    );
  }
  if (!/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/.test(options.githubRepository)) {
    problems.push(`--github "${options.githubRepository}" is not owner/name`);
  }
  problems.push(...registryNameProblems(options));
  return problems;
}

/**
 * The registry takes `io.github.<owner>/…` only from that GitHub owner, and
 * a reverse-DNS namespace only from whoever proves the domain.
 */
function registryNameProblems(options: CreateOptions): string[] {
  const { mcpName, githubRepository } = options;
  if (!/^[A-Za-z0-9.-]+\/[A-Za-z0-9._-]+$/.test(mcpName)) {
    return [`the registry name "${mcpName}" is not namespace/name, such as io.github.owner/my-server`];
  }
  const githubOwner = /^io\.github\.([^/]+)\//.exec(mcpName)?.[1];
  const repositoryOwner = githubRepository.split('/')[0] ?? '';
  if (githubOwner !== undefined && githubOwner.toLowerCase() !== repositoryOwner.toLowerCase()) {
    return [
      `the registry name "${mcpName}" does not match the GitHub owner "${repositoryOwner}": use ${defaultMcpName(githubRepository, options.packageName)}`,
    ];
  }
  return [];
}
