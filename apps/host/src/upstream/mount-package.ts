import type { McpServer } from '@toolshed/mcp-core';
import type { ToolshedPackage } from '../config/host-config.ts';

/**
 * Makes one of our servers from its package and options, in this process.
 * Each package is imported only when a config names it.
 */
export async function createPackageServer(name: ToolshedPackage, options: Record<string, unknown>): Promise<McpServer> {
  switch (name) {
    case '@toolshed/server-sql':
      return (await import('@toolshed/server-sql')).createSqlServer(options as never);
    case '@toolshed/server-filesystem':
      return (await import('@toolshed/server-filesystem')).createFilesystemServer(options as never);
    case '@toolshed/server-weather':
      return (await import('@toolshed/server-weather')).createWeatherServer(options as never);
    case '@toolshed/server-email':
      return (await import('@toolshed/server-email')).createEmailServer(options as never);
    case '@toolshed/server-image':
      return (await import('@toolshed/server-image')).createImageServer(options as never);
  }
}
