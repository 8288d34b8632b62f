import type { McpServer, ServerConnection } from '../server/create-mcp-server.ts';
import { createInMemoryTransportPair } from '../transports/in-memory-transport.ts';
import { type ClientTransportLike, type MessageRecording, recordMessages } from './message-recorder.ts';

/** Any client with the official SDK's connect(transport). */
export interface ConnectableClient {
  connect(transport: ClientTransportLike): Promise<unknown>;
}

export interface InMemoryConnection {
  connection: ServerConnection;
  recording: MessageRecording;
}

/**
 * Connects a client (the official SDK's, or any with the same shape) to a
 * server in memory, recording every message for schema checks.
 *
 * @example
 * const { recording } = await connectInMemory(server, new Client({ name: 'test', version: '1.0.0' }));
 */
export async function connectInMemory(server: McpServer, client: ConnectableClient): Promise<InMemoryConnection> {
  const [clientSide, serverSide] = createInMemoryTransportPair();
  const connection = await server.connect(serverSide);
  const recording = recordMessages(clientSide as ClientTransportLike);
  await client.connect(recording.transport);
  return { connection, recording };
}
