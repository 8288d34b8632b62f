import type { McpServer } from '../server/create-mcp-server.ts';
import { stopTelemetry } from '../telemetry/process-telemetry.ts';
import { createStdioServerTransport } from '../transports/stdio-server-transport.ts';
import { redirectConsoleToStderr } from './redirect-console.ts';

export interface ServeStdioOptions {
  /** How long in-flight work may take to wind down before the process exits. Default 2000 ms. */
  shutdownGraceMs?: number;
}

/**
 * Serves a server on this process's stdin/stdout until stdin ends or a
 * SIGINT/SIGTERM arrives, then closes it and exits.
 *
 * @example
 * await serveStdio(createMcpServer({ name: 'demo', version: '1.0.0', tools }));
 */
export async function serveStdio(server: McpServer, options: ServeStdioOptions = {}): Promise<void> {
  redirectConsoleToStderr();
  const connection = await server.connect(createStdioServerTransport());
  let shuttingDown = false;
  const shutDown = (exitCode: number): void => {
    // The first reason wins: closing on SIGTERM also ends the connection.
    if (shuttingDown) return;
    shuttingDown = true;
    process.exitCode = exitCode;
    // Exit even when a tool holds a timer or socket open.
    setTimeout(() => process.exit(exitCode), options.shutdownGraceMs ?? 2000).unref();
    // Spans still buffered are sent before the process goes.
    void server
      .close()
      .then(stopTelemetry)
      .then(() => process.exit(exitCode));
  };
  process.once('SIGINT', () => shutDown(130));
  process.once('SIGTERM', () => shutDown(143));
  await connection.closed;
  shutDown(0);
}
