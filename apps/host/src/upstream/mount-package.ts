import { type McpServer, parseOptions } from '@toolshed/mcp-core';
import type { StateStore } from '@toolshed/state';
import type { HostConfig, ToolshedPackage } from '../config/host-config.ts';

/** A package's options schema, loaded only when a config names the package. */
async function optionsSchemaOf(name: ToolshedPackage) {
  switch (name) {
    case '@toolshed/server-sql':
      return (await import('@toolshed/server-sql')).sqlServerOptions;
    case '@toolshed/server-filesystem':
      return (await import('@toolshed/server-filesystem')).filesystemServerOptions;
    case '@toolshed/server-weather':
      return (await import('@toolshed/server-weather')).weatherServerOptions;
    case '@toolshed/server-email':
      return (await import('@toolshed/server-email')).emailServerOptions;
    case '@toolshed/server-image':
      return (await import('@toolshed/server-image')).imageServerOptions;
  }
}

/**
 * Checks the options of every package the config mounts against that
 * package's own strict schema, before anything starts: a typo (`maxRowz`) is
 * a config error naming the server, the key's path and the closest valid
 * name — never an option silently ignored.
 */
export async function checkPackageOptions(config: HostConfig): Promise<void> {
  for (const entry of config.servers) {
    if (entry.kind !== 'package') continue;
    parseOptions(
      await optionsSchemaOf(entry.package),
      entry.options,
      `${config.source}: server "${entry.name}" (${entry.package}) options`,
    );
  }
}

/**
 * Makes one of our servers from its package and options, in this process,
 * the options checked by the package's own schema. Each package is imported
 * only when a config names it.
 */
export async function createPackageServer(
  name: ToolshedPackage,
  options: Record<string, unknown>,
  what: string = `${name} options`,
  /** What the host lends the servers it mounts: its state store. */
  runtime: { stateStore?: StateStore | undefined } = {},
): Promise<McpServer> {
  switch (name) {
    case '@toolshed/server-sql': {
      const { startSqlServer, sqlServerOptions } = await import('@toolshed/server-sql');
      // Started, not only created: a privileged role or a refused vetted statement stops the mount at start.
      return startSqlServer(parseOptions(sqlServerOptions, options, what));
    }
    case '@toolshed/server-filesystem': {
      const { createFilesystemServer, filesystemServerOptions } = await import('@toolshed/server-filesystem');
      return createFilesystemServer(parseOptions(filesystemServerOptions, options, what));
    }
    case '@toolshed/server-weather': {
      const { createWeatherServer, weatherServerOptions } = await import('@toolshed/server-weather');
      return createWeatherServer(parseOptions(weatherServerOptions, options, what));
    }
    case '@toolshed/server-email': {
      const { createEmailServer, emailServerOptions } = await import('@toolshed/server-email');
      // Send-once keys and uncertain sends in the host's store: shared by its replicas, kept across restarts.
      return createEmailServer(
        parseOptions(emailServerOptions, options, what),
        runtime.stateStore === undefined ? {} : { stateStore: runtime.stateStore },
      );
    }
    case '@toolshed/server-image': {
      const { createImageServer, imageServerOptions } = await import('@toolshed/server-image');
      return createImageServer(parseOptions(imageServerOptions, options, what));
    }
  }
}
