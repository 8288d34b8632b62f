import { isAppOnlyTool } from '../apps/tool-view-meta.ts';
import { declaresUi } from '../apps/ui-extension.ts';
import { complete } from '../completion/complete-request.ts';
import { invalidParams, methodNotFound } from '../errors/common-protocol-errors.ts';
import type { JsonRpcParams } from '../messages/jsonrpc-message.ts';
import { getPrompt, listPrompts } from '../prompts/prompt-requests.ts';
import { listResources, listResourceTemplates, readResource } from '../resources/resource-requests.ts';
import { callTool } from '../tools/call-tool.ts';
import type { Tool } from '../tools/define-tool.ts';
import type { CallContext } from './call-context.ts';
import type { ServerCore } from './server-core.ts';

/**
 * Answers the requests whose meaning does not depend on the protocol era or
 * on the connection. Throws ProtocolError for what must be a JSON-RPC error.
 * Methods of a capability the server did not declare are "not found". A
 * request answered without waiting (a list, a synchronous tool) is answered
 * synchronously, and throws rather than rejects.
 */
export function handleEngineRequest(
  core: ServerCore,
  method: string,
  params: JsonRpcParams,
  context: CallContext,
): Record<string, unknown> | Promise<Record<string, unknown>> {
  switch (method) {
    case 'ping':
      return {};
    case 'tools/list': {
      // Tools only views may call stay out of the list of a client that renders no views.
      const shown = declaresUi(context.client.capabilities)
        ? undefined
        : (tool: Tool) => !isAppOnlyTool(tool.descriptor);
      const page = core.tools.page(params.cursor, core.pageSize, method, (tool) => tool.name, shown);
      return page.nextCursor === undefined ? { tools: page.items } : { tools: page.items, nextCursor: page.nextCursor };
    }
    case 'tools/call': {
      const { name, arguments: args } = params;
      if (typeof name !== 'string') throw invalidParams('tools/call needs params.name, the tool name as a string');
      if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
        throw invalidParams('tools/call params.arguments must be an object of named arguments');
      }
      const tool = core.tools.get(name);
      if (tool === undefined || (isAppOnlyTool(tool.descriptor) && !declaresUi(context.client.capabilities))) {
        throw invalidParams(`Unknown tool: "${name.slice(0, 100)}". Call tools/list for the available tools.`);
      }
      const called = callTool(tool, (args as Record<string, unknown>) ?? {}, context, core.report);
      // A copy: the era's answer adds its own fields, and what the tool returned is not ours to change.
      return called instanceof Promise ? called.then((result) => ({ ...result })) : { ...called };
    }
    case 'resources/list':
    case 'resources/templates/list':
    case 'resources/read':
      if (core.capabilities().resources === undefined) throw methodNotFound(method);
      if (method === 'resources/list') return listResources(core, params, context);
      if (method === 'resources/templates/list') return listResourceTemplates(core, params);
      return readResource(core, params, context);
    case 'prompts/list':
    case 'prompts/get':
      if (core.capabilities().prompts === undefined) throw methodNotFound(method);
      return method === 'prompts/list' ? listPrompts(core, params) : getPrompt(core, params, context);
    case 'completion/complete':
      if (core.capabilities().completions === undefined) throw methodNotFound(method);
      return complete(core, params);
    default:
      throw methodNotFound(method);
  }
}
