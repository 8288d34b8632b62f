import { createMcpServer, type McpServer } from '@toolshed/mcp-core';
import { fixturePrompts } from './fixture-prompts.ts';
import { fixtureResources, fixtureResourceTemplates } from './fixture-resources.ts';
import { fixtureTools } from './fixture-tools.ts';

/** The server the official conformance suite runs its server scenarios against. */
export function createConformanceServer(): McpServer {
  return createMcpServer({
    name: 'toolshed-conformance-fixture',
    version: '0.0.0',
    tools: fixtureTools,
    prompts: fixturePrompts,
    resources: fixtureResources,
    resourceTemplates: fixtureResourceTemplates,
  });
}
