/**
 * The packages people install as MCP servers, with what registries and
 * bundles say of them. Each server's settings come from its bin's options, so
 * a registry entry or bundle never lists a setting the bin does not take.
 */
import type { OptionField } from '../packages/mcp-core/src/options/option-fields.ts';

export type { OptionField };

export interface ServerPackage {
  directory: string;
  /** Shown in registries: the registry allows 100 characters. */
  description: string;
  /** The bin definition, for the settings; the host takes a config file instead. */
  cli?: [module: string, exportName: string];
  /** The name a bundle shows. */
  displayName: string;
}

export interface ServerCliShape {
  fields: OptionField[];
  definition: { operands?: { option: string } };
}

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

/** The bin definition of a server package, from its source. */
export async function serverCli(server: ServerPackage): Promise<ServerCliShape | undefined> {
  if (server.cli === undefined) return undefined;
  const root = new URL(`../${server.directory}/`, import.meta.url);
  return (await import(new URL(server.cli[0], root).href))[server.cli[1]] as ServerCliShape;
}
