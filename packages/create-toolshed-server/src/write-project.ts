/**
 * Writes a new project from the templates in this package (`templates/`,
 * with the generated parts in `generated/`).
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binName, type CreateOptions } from './create-options.ts';
import dependencyVersions from './dependency-versions.json' with { type: 'json' };
import { padMarkdownTable } from './markdown-table.ts';
import { renderTemplate } from './render-template.ts';

const templates = fileURLToPath(new URL('../templates/', import.meta.url));
const generated = fileURLToPath(new URL('../generated/', import.meta.url));

/**
 * Names kept otherwise in the templates: npm drops or acts on dotted names in a published package, a
 * `biome.json` there would be taken for this workspace's own, and a nested `package.json` with `exports` is one
 * that package linters refuse.
 */
const renamed: Readonly<Record<string, string>> = {
  gitignore: '.gitignore',
  github: '.github',
  changeset: '.changeset',
  'biome-config.json': 'biome.json',
  'package-template.json': 'package.json',
};

function templateFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? templateFiles(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}

/** `PASCAL`/`SNAKE` forms of a name for the environment prefix. */
function environmentPrefix(name: string): string {
  return name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

function displayName(name: string): string {
  return name
    .split(/[-_.]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** The placeholder values of a project. */
export function templateValues(options: CreateOptions, now: Date = new Date()): Record<string, string> {
  const bin = binName(options.packageName);
  const owner = options.githubRepository.split('/')[0] ?? '';
  return {
    PACKAGE_NAME: options.packageName,
    BIN_NAME: bin,
    DISPLAY_NAME: displayName(bin),
    DESCRIPTION: options.description,
    MCP_NAME: options.mcpName,
    GITHUB_REPOSITORY: options.githubRepository,
    ENV_PREFIX: environmentPrefix(bin),
    RUN: options.packageManager,
    PACKAGE_MANAGER: options.packageManager,
    INSTALL_FROZEN: options.packageManager === 'pnpm' ? 'pnpm install --frozen-lockfile' : 'npm ci',
    YEAR: String(now.getUTCFullYear()),
    AUTHOR: owner,
    OPTIONS_TABLE: padMarkdownTable(
      readFileSync(join(generated, 'options-table.txt'), 'utf8').replaceAll('__ENV_PREFIX__', environmentPrefix(bin)),
    ),
    ...Object.fromEntries(Object.entries(dependencyVersions).map(([name, range]) => [`VERSION_${name}`, range])),
  };
}

/** Where a template file goes in the project, or `undefined` when the options leave it out. */
function targetPath(relativePath: string, options: CreateOptions, values: Record<string, string>): string | undefined {
  const parts = relativePath.split(/[\\/]/).map((part) => renamed[part] ?? part);
  const file = parts.at(-1) as string;
  if (file.includes('[destructive]') && !options.destructiveExample) return undefined;
  if (file.includes('[http]') && !options.http) return undefined;
  parts[parts.length - 1] = file.replace('[destructive]', '').replace('[http]', '');
  return parts.join('/').replaceAll('__BIN_NAME__', values.BIN_NAME as string);
}

/**
 * Writes the project into `options.directory` (created when missing);
 * returns the files written, relative to it.
 *
 * @example
 * writeProject({ directory: 'notes', packageName: 'notes-server', … })
 */
export function writeProject(options: CreateOptions): string[] {
  const values = templateValues(options);
  const flags = {
    destructive: options.destructiveExample,
    readOnly: !options.destructiveExample,
    http: options.http,
    stdioOnly: !options.http,
    pnpm: options.packageManager === 'pnpm',
    npm: options.packageManager === 'npm',
  };
  const written: string[] = [];
  for (const source of templateFiles(templates)) {
    const target = targetPath(relative(templates, source), options, values);
    if (target === undefined) continue;
    const text = renderTemplate(readFileSync(source, 'utf8'), flags, values);
    const path = join(options.directory, target);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    if (target.startsWith('bin/')) chmodSync(path, 0o755);
    written.push(target);
  }
  // The JSON Schemas the tools list, as the schema test writes them (see generated/README.md).
  const schemas = options.destructiveExample ? 'tool-json-schemas-destructive.txt' : 'tool-json-schemas.txt';
  writeFileSync(join(options.directory, 'src/tool-json-schemas.ts'), readFileSync(join(generated, schemas), 'utf8'));
  written.push('src/tool-json-schemas.ts');
  if (options.packageManager === 'pnpm') {
    // For pnpm/action-setup in CI; written as text, so package.json stays laid out as its formatter lays it out.
    const manifestPath = join(options.directory, 'package.json');
    const manifest = readFileSync(manifestPath, 'utf8');
    writeFileSync(
      manifestPath,
      manifest.replace('  "type": "module",\n', '  "type": "module",\n  "packageManager": "pnpm@10.34.8",\n'),
    );
  }
  return written.sort();
}
