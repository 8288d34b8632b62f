import { createMcpServer, type McpServer, packageVersion, parseOptions } from '@toolshed/mcp-core';
// #if destructive
import { createDeleteNoteTool } from './delete-note-tool.ts';
// #endif
import { createNoteStore } from './note-store.ts';
import { createSearchNotesTool } from './search-notes-tool.ts';
import { type ServerOptions, serverOptions } from './server-options.ts';

/**
 * The __DISPLAY_NAME__ server. No global state: two servers with different options live side by side in one
 * process.
 *
 * @example
 * const server = createServer({ maxResults: 5 });
 * await server.connect(createStdioServerTransport());
 */
export function createServer(input: ServerOptions = {}): McpServer {
  const options = parseOptions(serverOptions, input, '__PACKAGE_NAME__ options');
  const store = createNoteStore([
    { id: 'welcome', title: 'Welcome', text: 'This server was made with create-toolshed-server.' },
    { id: 'rules', title: 'Three rules', text: 'Nothing but JSON-RPC on stdout. Ask before the side effect.' },
  ]);
  return createMcpServer({
    name: '__BIN_NAME__',
    title: '__DISPLAY_NAME__',
    version: packageVersion(import.meta.url),
    instructions: '__DESCRIPTION__',
    // #if destructive
    tools: [createSearchNotesTool(store, options.maxResults), createDeleteNoteTool(store)],
    // #endif
    // #if readOnly
    tools: [createSearchNotesTool(store, options.maxResults)],
    // #endif
  });
}
