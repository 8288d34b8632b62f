import type { JsonRpcMessage } from '../messages/jsonrpc-message.ts';
import type { CallToolResult } from '../protocol/mcp-types.ts';
import { latestLegacyProtocolVersion } from '../protocol/protocol-version.ts';
import type { McpServer } from '../server/create-mcp-server.ts';
import { createInMemoryTransportPair } from '../transports/in-memory-transport.ts';

export interface BareClient {
  /** Sends a request and resolves with the whole response message. */
  request(method: string, params: Record<string, unknown>): Promise<JsonRpcMessage>;
  /** Calls a tool; a JSON-RPC error or an `isError` result rejects, with the response in the message. */
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

/**
 * The least a client can be: JSON-RPC over an in-memory pair, initialized,
 * with no validation or bookkeeping of its own — so that a benchmark of a
 * server measures the server, not the client.
 *
 * @example
 * const client = await connectBareClient(server);
 * await client.callTool('query', { sql: 'SELECT 1' });
 */
export async function connectBareClient(server: McpServer): Promise<BareClient> {
  const [transport, serverSide] = createInMemoryTransportPair();
  await server.connect(serverSide);
  const pending = new Map<number, (message: JsonRpcMessage) => void>();
  transport.onmessage = (message) => {
    const id = (message as { id?: number }).id;
    if (id === undefined) return;
    pending.get(id)?.(message as JsonRpcMessage);
    pending.delete(id);
  };
  await transport.start();
  let nextId = 1;
  const request = (method: string, params: Record<string, unknown>) =>
    new Promise<JsonRpcMessage>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      void transport.send({ jsonrpc: '2.0', id, method, params });
    });
  await request('initialize', {
    protocolVersion: latestLegacyProtocolVersion,
    capabilities: {},
    clientInfo: { name: 'bare-client', version: '1' },
  });
  await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    request,
    async callTool(name, args) {
      const response = (await request('tools/call', { name, arguments: args })) as { result?: CallToolResult };
      if (response.result === undefined || response.result.isError === true) throw new Error(JSON.stringify(response));
      return response.result;
    },
  };
}
