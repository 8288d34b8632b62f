import type { McpServer, Tool } from '@toolshed/mcp-core';
import type { ToolList } from '../config/host-config.ts';
import type { Upstream } from '../upstream/upstream.ts';

/** A proxy for one upstream tool and the server it stands for. */
export interface ShelvedTool {
  tool: Tool;
  upstream: Upstream;
  /** The tool's name on its upstream: what the upstream's views call it. */
  upstreamName: string;
}

/**
 * Every proxy tool the host has, by exposed name. With the `full` tool list
 * the shelf is mirrored on the server, one listed tool per proxy; with
 * `search` the server lists the search tools instead and the proxies are
 * reached through them, so upstream list changes never reach the client.
 */
export interface ToolShelf {
  add(shelved: ShelvedTool): void;
  remove(name: string): void;
  get(name: string): ShelvedTool | undefined;
  /** The proxies now, in the order they were shelved. */
  all(): ShelvedTool[];
  /** Switches what the server lists; `searchTools` are listed in place of the proxies under `search`. */
  list(mode: ToolList, searchTools: readonly Tool[]): void;
}

export function createToolShelf(server: McpServer): ToolShelf {
  const shelved = new Map<string, ShelvedTool>();
  let mode: ToolList | undefined;
  let listedSearchTools: readonly Tool[] = [];
  return {
    add(entry) {
      shelved.set(entry.tool.name, entry);
      if (mode === 'full') server.addTool(entry.tool);
    },
    remove(name) {
      if (!shelved.delete(name)) return;
      if (mode === 'full') server.removeTool(name);
    },
    get: (name) => shelved.get(name),
    all: () => [...shelved.values()],
    list(next, searchTools) {
      if (next === mode) return;
      if (mode === 'full') for (const name of shelved.keys()) server.removeTool(name);
      for (const tool of listedSearchTools) server.removeTool(tool.name);
      listedSearchTools = [];
      if (next === 'full') {
        for (const entry of shelved.values()) server.addTool(entry.tool);
      } else {
        for (const tool of searchTools) server.addTool(tool);
        listedSearchTools = searchTools;
      }
      mode = next;
    },
  };
}
