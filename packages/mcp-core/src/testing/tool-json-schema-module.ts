import type { McpServer } from '../server/create-mcp-server.ts';
import { lazyToolSchemas, type ToolJsonSchemas } from '../tools/define-tool.ts';
import { toolInputJsonSchema } from '../tools/tool-input.ts';
import { toToolJsonSchema } from '../tools/tool-json-schema.ts';

/**
 * The source of a module holding the JSON Schemas of the tools that build
 * their zod schemas on first use (given as functions) on one or more servers
 * (the first of a name wins), derived
 * from those schemas now, with every check `defineTool` makes. A server passes
 * them back as `jsonSchemas`, so its start builds no tool schema; a test keeps
 * the module current by comparing it with this, and writes it when asked
 * (`vitest -u`):
 *
 * @example
 * it('keeps tool-json-schemas.ts current', async () => {
 *   await expect(toolJsonSchemaModule(createWeatherServer())).toMatchFileSnapshot('./tool-json-schemas.ts');
 * });
 */
export function toolJsonSchemaModule(
  servers: McpServer | readonly McpServer[],
  exportName = 'toolJsonSchemas',
): string {
  const schemas: Record<string, ToolJsonSchemas> = {};
  for (const server of ([] as McpServer[]).concat(servers)) {
    for (const name of server.toolNames().filter((name) => !(name in schemas))) {
      const tool = server.getTool(name);
      const lazy = tool === undefined ? undefined : lazyToolSchemas(tool);
      if (lazy === undefined) continue;
      const entry: ToolJsonSchemas = {};
      if (lazy.input !== undefined) entry.input = toolInputJsonSchema(lazy.input, `Tool "${name}" input`);
      if (lazy.output !== undefined) entry.output = toToolJsonSchema(lazy.output, 'output', `Tool "${name}" output`);
      schemas[name] = entry;
    }
  }
  // Sorted, so the module does not change with the order servers are given in.
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : 1)));
  const names =
    Object.keys(sorted)
      .map((name) => JSON.stringify(name))
      .join(' | ') || 'never';
  return [
    "// Generated from the tools' zod schemas by toolJsonSchemaModule (@toolshed/mcp-core/testing): edit the",
    "// schemas, then run this package's tests with -u. A test fails while this differs from what they derive.",
    "import type { ToolJsonSchemas } from '@toolshed/mcp-core';",
    '',
    `export const ${exportName}: Record<${names}, ToolJsonSchemas> = ${JSON.stringify(sorted, null, 2)};`,
    '',
  ].join('\n');
}
