/**
 * A project's release settings, from the `toolshed` field of its
 * package.json: a project that is one server names it under `server`; a
 * workspace lists `servers`, each with its directory.
 *
 * ```json
 * "toolshed": {
 *   "server": { "displayName": "Notes", "description": "Notes you can search", "cli": ["src/notes-cli.ts", "notesCli"] },
 *   "author": "Example Ltd"
 * }
 * ```
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registryDescriptionLimit, type ServerPackage } from './server-package.ts';

export interface ProjectConfig {
  servers: ServerPackage[];
  /** A bundle's author when package.json names none. */
  author?: string;
}

interface ToolshedField {
  server?: Omit<ServerPackage, 'directory'>;
  servers?: ServerPackage[];
  author?: string;
}

/**
 * Reads the project's `toolshed` settings; a missing or wrong one throws an
 * error that says what to write.
 *
 * @example
 * const { servers } = readProjectConfig(process.cwd());
 */
export function readProjectConfig(root: string): ProjectConfig {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { toolshed?: ToolshedField };
  const field = manifest.toolshed;
  const servers = field?.servers ?? (field?.server === undefined ? undefined : [{ directory: '.', ...field.server }]);
  if (servers === undefined || servers.length === 0) {
    throw new Error('package.json has no "toolshed": { "server": { "displayName", "description", "cli" } }');
  }
  for (const server of servers) {
    if (typeof server.displayName !== 'string' || typeof server.description !== 'string') {
      throw new Error(
        `package.json "toolshed": the server in ${server.directory} needs a displayName and a description`,
      );
    }
    if (server.description.length > registryDescriptionLimit) {
      throw new Error(
        `package.json "toolshed": the description of ${server.directory} has ${server.description.length} characters; the MCP Registry takes ${registryDescriptionLimit}`,
      );
    }
  }
  return { servers, ...(field?.author === undefined ? {} : { author: field.author }) };
}
