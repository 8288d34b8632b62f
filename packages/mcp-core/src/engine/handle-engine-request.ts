import { ProtocolError } from '../errors/protocol-error.ts';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import type { JsonRpcParams } from '../messages/jsonrpc-message.ts';
import { callTool } from '../tools/call-tool.ts';
import type { ServerCore } from './server-core.ts';
import type { ToolContext } from './tool-context.ts';

function invalidParams(message: string): ProtocolError {
  return new ProtocolError(JsonRpcErrorCode.InvalidParams, message);
}

/**
 * Answers the requests whose meaning does not depend on the protocol era or
 * on the connection. Throws ProtocolError for what must be a JSON-RPC error.
 */
export async function handleEngineRequest(
  core: ServerCore,
  method: string,
  params: JsonRpcParams,
  context: ToolContext,
): Promise<Record<string, unknown>> {
  switch (method) {
    case 'ping':
      return {};
    case 'tools/list':
      return { ...core.tools.page(params.cursor, core.pageSize) };
    case 'tools/call': {
      const { name, arguments: args } = params;
      if (typeof name !== 'string') throw invalidParams('tools/call needs params.name, the tool name as a string');
      if (args !== undefined && (typeof args !== 'object' || args === null || Array.isArray(args))) {
        throw invalidParams('tools/call params.arguments must be an object of named arguments');
      }
      const tool = core.tools.get(name);
      if (tool === undefined) {
        throw invalidParams(`Unknown tool: "${name.slice(0, 100)}". Call tools/list for the available tools.`);
      }
      return { ...(await callTool(tool, (args as Record<string, unknown>) ?? {}, context, core.report)) };
    }
    default:
      throw new ProtocolError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method.slice(0, 100)}`);
  }
}
