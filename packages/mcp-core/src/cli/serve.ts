import { LocalError } from '../errors/local-error.ts';
import type { McpServer } from '../server/create-mcp-server.ts';
import { stopTelemetry } from '../telemetry/process-telemetry.ts';
import type { BearerTokenVerifier, HttpAuthOptions } from '../transports/http/auth/http-auth-options.ts';
import type { HttpServeOptions } from '../transports/http/http-options.ts';
import { serveHttp } from '../transports/http/serve-http.ts';
import { redirectConsoleToStderr } from './redirect-console.ts';
import { serveStdio } from './serve-stdio.ts';

// Taken with getBuiltinModule: imported as an ES module, node:fs builds a facade of every export at start.
const { readFileSync } = process.getBuiltinModule('node:fs');

/** The values of `httpCliOptions`, as parsed. */
export interface HttpCliValues {
  http?: string;
  httpStateless?: boolean;
  httpSessionPrefix?: string;
  httpAllowedHosts?: string[];
  httpAllowedOrigins?: string[];
  httpTokensFile?: string;
  httpJwtIssuer?: string;
  httpJwksUrl?: string;
  httpResource?: string;
  httpRequiredScopes?: string[];
  httpInsecureNoAuth?: boolean;
  metrics?: string;
}

/** `3000`, `0.0.0.0:3000`, `[::1]:3000` or `localhost:3000`. */
function parseListen(value: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[2]);
  if (match === null || port > 65535) {
    throw new LocalError('config_invalid', `--http must be PORT or HOST:PORT (such as 127.0.0.1:3000); got "${value}"`);
  }
  return { host: (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port };
}

function readTokens(values: HttpCliValues, env: Readonly<Record<string, string | undefined>>): string[] {
  const tokens = (env.TOOLSHED_HTTP_TOKENS ?? '').split(',').map((token) => token.trim());
  if (values.httpTokensFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(values.httpTokensFile, 'utf8');
    } catch (error) {
      throw new LocalError(
        'config_invalid',
        `cannot read --http-tokens-file ${values.httpTokensFile}: ${(error as Error).message}`,
      );
    }
    tokens.push(
      ...text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => !line.startsWith('#')),
    );
  }
  return tokens.filter(Boolean);
}

/** Turns the shared HTTP flags into serveHttp options. */
export function httpOptionsFromCli(
  values: HttpCliValues,
  env: Readonly<Record<string, string | undefined>>,
): HttpServeOptions {
  const { host, port } = parseListen(values.http ?? '');
  const options: HttpServeOptions = { host, port };
  if (values.httpStateless === true) options.sessions = 'stateless';
  if (values.httpSessionPrefix !== undefined) options.sessionIdPrefix = values.httpSessionPrefix;
  if (values.httpAllowedHosts !== undefined) options.allowedHosts = values.httpAllowedHosts;
  if (values.httpAllowedOrigins !== undefined) options.allowedOrigins = values.httpAllowedOrigins;
  if (values.httpInsecureNoAuth === true) options.allowInsecureNoAuth = true;
  const tokens = readTokens(values, env);
  if (tokens.length > 0 || values.httpJwtIssuer !== undefined) {
    const auth: HttpAuthOptions = {};
    if (tokens.length > 0) auth.tokens = tokens;
    if (values.httpJwtIssuer !== undefined) {
      auth.jwt =
        values.httpJwksUrl === undefined
          ? { issuer: values.httpJwtIssuer }
          : { issuer: values.httpJwtIssuer, jwksUrl: values.httpJwksUrl };
    }
    if (values.httpResource !== undefined) auth.resource = values.httpResource;
    if (values.httpRequiredScopes !== undefined) auth.requiredScopes = values.httpRequiredScopes;
    options.auth = auth;
  }
  return options;
}

/**
 * Serves a bin's server the way its flags say: stdio by default, Streamable
 * HTTP with `--http`. On HTTP, SIGINT/SIGTERM close gracefully (in-flight
 * calls finish) and the URL is printed on stderr. `verifyToken` adds the
 * application's own tokens to the endpoint's auth, when its flags turn auth on.
 *
 * @example
 * await runCli(cli, argv, env, (options) => serve(createSqlServer(options), options, env));
 */
export async function serve(
  server: McpServer,
  values: HttpCliValues,
  env: Readonly<Record<string, string | undefined>> = process.env,
  extra: {
    verifyToken?: BearerTokenVerifier;
    readiness?: HttpServeOptions['readiness'];
    relay?: HttpServeOptions['relay'];
    /** Told the endpoint's URL once it listens. */
    onListening?: (url: string) => void;
  } = {},
): Promise<void> {
  if (values.http === undefined) {
    await serveStdio(server);
    return;
  }
  redirectConsoleToStderr();
  const options = httpOptionsFromCli(values, env);
  if (options.auth !== undefined && extra.verifyToken !== undefined) {
    options.auth = { ...options.auth, verifyToken: extra.verifyToken };
  }
  if (extra.readiness !== undefined) options.readiness = extra.readiness;
  if (extra.relay !== undefined) options.relay = extra.relay;
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
  process.stderr.write(`${server.info.name} serving MCP over HTTP at ${http.url}\n`);
  extra.onListening?.(http.url);
  await new Promise<void>((resolve) => {
    const stop = (exitCode: number): void => {
      process.exitCode = exitCode;
      void http.close().then(stopTelemetry).then(resolve);
    };
    process.once('SIGINT', () => stop(130));
    process.once('SIGTERM', () => stop(143));
  });
}
