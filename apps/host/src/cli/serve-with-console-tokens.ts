import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type HttpCliValues,
  httpOptionsFromCli,
  LocalError,
  type McpServer,
  redirectConsoleToStderr,
  type StaticBearerToken,
  serve,
  serveHttp,
} from '@toolshed/mcp-core';
import type { TokenStore } from '../console/console-token-store.ts';

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * Serves the host as mcp-core's `serve` does, and when the HTTP endpoint
 * requires auth, also accepts the console's tokens there, each as its user.
 * mcp-core checks static tokens it is given in plain text, and the console
 * keeps only digests; so each console token gets a random stand-in, known to
 * this process only and registered with mcp-core under the token's user, and
 * a request presenting a console token that the store verifies (revoked ones
 * fail) is passed on with its stand-in. A token made after the start has no
 * stand-in: it works on the console at once and on the endpoint after the
 * next start.
 */
export async function serveWithConsoleTokens(
  server: McpServer,
  values: HttpCliValues,
  env: NodeJS.ProcessEnv,
  tokens: TokenStore | undefined,
): Promise<void> {
  const options = values.http === undefined ? undefined : httpOptionsFromCli(values, env);
  if (options?.auth === undefined || tokens === undefined) {
    await serve(server, values, env);
    return;
  }
  const standIns = new Map<string, string>();
  const added: StaticBearerToken[] = tokens.list().map((token) => {
    const standIn = randomBytes(32).toString('base64url');
    standIns.set(token.id, standIn);
    return { token: standIn, subject: token.user };
  });
  options.auth = { ...options.auth, tokens: [...(options.auth.tokens ?? []), ...added] };
  redirectConsoleToStderr();
  let http: Awaited<ReturnType<typeof serveHttp>>;
  try {
    http = await serveHttp(server, options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new LocalError('config_invalid', `cannot listen on ${values.http}: ${(error as Error).message}`);
    }
    throw error;
  }
  const listeners = http.server.listeners('request') as RequestListener[];
  http.server.removeAllListeners('request');
  http.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const presented = /^Bearer +(tsc_[A-Za-z0-9_-]+) *$/i.exec(request.headers.authorization ?? '')?.[1];
    if (presented !== undefined) {
      const token = tokens.verify(presented);
      const standIn = token === undefined ? undefined : standIns.get(token.id);
      if (standIn !== undefined) request.headers.authorization = `Bearer ${standIn}`;
    }
    for (const listener of listeners) listener.call(http.server, request, response);
  });
  process.stderr.write(`${server.info.name} serving MCP over HTTP at ${http.url}\n`);
  await new Promise<void>((resolve) => {
    const stop = (exitCode: number): void => {
      process.exitCode = exitCode;
      void http.close().then(resolve);
    };
    process.once('SIGINT', () => stop(130));
    process.once('SIGTERM', () => stop(143));
  });
}
