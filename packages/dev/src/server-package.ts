/**
 * A package people install as an MCP server, as registries and bundles see
 * it. Its settings come from its bin's options, so a registry entry or bundle
 * never lists a setting the bin does not take.
 */
import type { withOptionsTable } from '@toolshed/mcp-core';

/** A bin definition from `defineServerCli`, whatever its options schema. */
export type ServerCliShape = Parameters<typeof withOptionsTable>[1];

/** One option of a bin, as its flags, environment and README see it. */
export type OptionField = ServerCliShape['fields'][number];

export interface ServerPackage {
  /** The package's directory, relative to the project root (`.` for a project that is one server). */
  directory: string;
  /** Shown in registries and bundles: the registry allows 100 characters. */
  description: string;
  /** The name a bundle shows. */
  displayName: string;
  /** The module (relative to the package directory) and export of the bin's `defineServerCli` definition; none for a server configured otherwise. */
  cli?: readonly [module: string, exportName: string];
}

/** The registry's limit on a server's description. */
export const registryDescriptionLimit = 100;

/**
 * The bin definition of a server package, imported from its source.
 *
 * @example
 * const cli = await loadServerCli('/work/my-server', { directory: '.', description: '…', displayName: 'My server', cli: ['src/my-server-cli.ts', 'myServerCli'] });
 */
export async function loadServerCli(root: string, server: ServerPackage): Promise<ServerCliShape | undefined> {
  if (server.cli === undefined) return undefined;
  const directory = new URL(`${server.directory.replace(/\/?$/, '/')}`, rootUrl(root));
  const module = (await import(new URL(server.cli[0], directory).href)) as Record<string, unknown>;
  const cli = module[server.cli[1]];
  if (cli === undefined) throw new Error(`${server.directory}/${server.cli[0]} exports no ${server.cli[1]}`);
  return cli as ServerCliShape;
}

/** A project root as a directory URL. */
export function rootUrl(root: string): URL {
  return new URL(`file://${root.endsWith('/') ? root : `${root}/`}`);
}
