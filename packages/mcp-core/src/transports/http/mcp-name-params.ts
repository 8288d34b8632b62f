/**
 * The 2026-era requests whose target a client mirrors into the `Mcp-Name`
 * header, and the param it mirrors: intermediaries route on it (a load
 * balancer sends every request for one task to where the task is), so
 * clients set it and servers check it against the body.
 */
export const mcpNameParams: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = Object.freeze({
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // The tasks extension.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
});
