import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { buildModernFixtureServer, createModernFixtureState, type ModernFixtureState } from './sdk-modern-server.ts';

/** The parts of one HTTP request a test looks at. */
export interface SeenRequest {
  httpMethod: string;
  headers: Record<string, string | undefined>;
}

export interface SdkModernHttpServer {
  url: string;
  state: ModernFixtureState;
  /** Every request that reached the server, in order. */
  seen: SeenRequest[];
  close(): Promise<void>;
}

const watchedHeaders = ['mcp-protocol-version', 'mcp-method', 'mcp-name', 'mcp-session-id'];

/**
 * The SDK v2 fixture server over Streamable HTTP on 127.0.0.1, from the
 * SDK's own `createMcpHandler`: dual-era (legacy requests served statelessly)
 * unless `modernOnly`.
 */
export async function startSdkModernHttpServer(options: { modernOnly?: boolean } = {}): Promise<SdkModernHttpServer> {
  const state = createModernFixtureState();
  const seen: SeenRequest[] = [];
  const handler = createMcpHandler(() => buildModernFixtureServer(state), {
    legacy: options.modernOnly === true ? 'reject' : 'stateless',
  });
  state.toolsChanged = () => handler.notify.toolsChanged();
  const serve = toNodeHandler(handler);
  const http: Server = createServer((request, response) => {
    seen.push({
      httpMethod: request.method ?? '',
      headers: Object.fromEntries(watchedHeaders.map((name) => [name, request.headers[name] as string | undefined])),
    });
    // The adapter's request type declares `method?: string`, which Node's `string | undefined` only fails under exactOptionalPropertyTypes.
    void serve(request as Parameters<typeof serve>[0], response);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    state,
    seen,
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
