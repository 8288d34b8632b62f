/**
 * The packages people install as MCP servers, with what registries and
 * bundles say of them. Each server's settings come from its bin's options, so
 * a registry entry or bundle never lists a setting the bin does not take.
 */
import type { ServerPackage } from '../packages/dev/src/index.ts';

/** The workspace root, where every directory below is relative to. */
export const workspaceRoot: string = new URL('..', import.meta.url).pathname;

/** Named as the bundles' author: the packages' manifests name none. */
export const bundleAuthor = 'Toolshed';

export const serverPackages: readonly ServerPackage[] = [
  {
    directory: 'packages/server-sql',
    description: 'Read-only SQL over SQLite, PostgreSQL and MySQL/MariaDB that no statement can talk into writing',
    cli: ['src/sql-cli.ts', 'sqlCli'],
    displayName: 'Toolshed SQL',
  },
  {
    directory: 'packages/server-filesystem',
    description: 'Files in the directories you allow, path-guarded, with read-only grants',
    cli: ['src/filesystem-cli.ts', 'filesystemCli'],
    displayName: 'Toolshed Filesystem',
  },
  {
    directory: 'packages/server-weather',
    description: 'Weather, forecasts, history and air quality from Open-Meteo; alerts for the US, Canada and Europe',
    cli: ['src/weather-cli.ts', 'weatherCli'],
    displayName: 'Toolshed Weather',
  },
  {
    directory: 'packages/server-email',
    description: 'Email that asks before it sends, to allowed recipients only',
    cli: ['src/email-cli.ts', 'emailCli'],
    displayName: 'Toolshed Email',
  },
  {
    directory: 'packages/server-image',
    description: 'Image info and one-pass edits on sharp, returning images a model can see',
    cli: ['src/image-cli.ts', 'imageCli'],
    displayName: 'Toolshed Image',
  },
  {
    directory: 'apps/host',
    description: 'Many MCP servers behind one endpoint, with approvals and an audit log',
    displayName: 'Toolshed Host',
  },
];
