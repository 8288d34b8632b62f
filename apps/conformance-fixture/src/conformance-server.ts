import { createMcpServer, type McpServer } from '@toolshed/mcp-core';
import { modernTools, type ServerReference } from './fixture-modern-tools.ts';
import { fixturePrompts } from './fixture-prompts.ts';
import { fixtureResources, fixtureResourceTemplates } from './fixture-resources.ts';
import { taskTools } from './fixture-task-tools.ts';
import { fixtureTools } from './fixture-tools.ts';

/** The server the official conformance suite runs its server scenarios against. */
export function createConformanceServer(): McpServer {
  const reference: ServerReference = { current: undefined };
  const server = createMcpServer({
    name: 'toolshed-conformance-fixture',
    version: '0.0.0',
    tools: [...fixtureTools, ...modernTools(reference), ...taskTools],
    prompts: fixturePrompts,
    resources: fixtureResources,
    resourceTemplates: fixtureResourceTemplates,
  });
  reference.current = server;
  return server;
}
