import { join } from 'node:path';
import { isLoopbackAddress, LocalError } from '@toolshed/mcp-core';
import { type ConsoleServerHandle, serveConsole } from '../console/console-server.ts';
import { createTokenStore, importTokenFile, type TokenStore } from '../console/console-token-store.ts';
import type { Host } from '../create-host.ts';
import { stateDirectory } from '../state-directory.ts';

/** The flags of `toolshed serve` for the web console. */
export const consoleCliOptions = {
  console: {
    type: 'string',
    env: 'TOOLSHED_CONSOLE',
    placeholder: '[HOST:]PORT',
    description:
      'Serve the web console (servers, try it, approvals, audit, tokens) at HOST:PORT; HOST defaults to 127.0.0.1',
  },
  consoleAllowedHosts: {
    type: 'list',
    env: 'TOOLSHED_CONSOLE_ALLOWED_HOSTS',
    placeholder: 'HOST',
    description: 'Host header names the console accepts; required to bind anything but loopback',
  },
  consoleTokensFile: {
    type: 'string',
    env: 'TOOLSHED_CONSOLE_TOKENS_FILE',
    placeholder: 'PATH',
    description:
      'A console-tokens.json whose tokens are brought into the state store at start; default $XDG_STATE_HOME/toolshed/console-tokens.json',
  },
} as const;

export interface ConsoleCliValues {
  console?: string | undefined;
  consoleAllowedHosts?: string[] | undefined;
  consoleTokensFile?: string | undefined;
}

/** `3100`, `127.0.0.1:3100`, `[::1]:3100` or `localhost:3100`. */
export function parseConsoleListen(value: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value.trim());
  const port = Number(match?.[2]);
  if (match === null || port > 65535) {
    throw new LocalError(
      'config_invalid',
      `--console must be PORT or HOST:PORT (such as 127.0.0.1:3100); got "${value}"`,
    );
  }
  return { host: (match[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port };
}

/** Fails fast, before any server starts, on console flags that cannot work. */
export function checkConsoleOptions(values: ConsoleCliValues): void {
  if (values.console === undefined) return;
  const { host } = parseConsoleListen(values.console);
  if (!isLoopbackAddress(host) && (values.consoleAllowedHosts ?? []).length === 0) {
    throw new LocalError(
      'config_invalid',
      `the console binds ${host}, which is not loopback: name the host names browsers will use with --console-allowed-hosts (and put it behind TLS)`,
    );
  }
}

/**
 * Starts the console when `--console` asks for it. With no token yet, one
 * is made for `admin` and printed once on stderr, the only place it appears.
 */
export async function startConsole(
  host: Host,
  values: ConsoleCliValues,
  env: NodeJS.ProcessEnv,
  write: (line: string) => void,
): Promise<{ handle: ConsoleServerHandle; tokens: TokenStore } | undefined> {
  if (values.console === undefined) return undefined;
  const { host: listenHost, port } = parseConsoleListen(values.console);
  const tokens = createTokenStore(host.store);
  // Tokens made before the state store kept them were in this file: brought in once, so they keep working.
  await importTokenFile(values.consoleTokensFile ?? join(stateDirectory(env), 'console-tokens.json'), host.store());
  let handle: ConsoleServerHandle;
  try {
    handle = await serveConsole({ host, tokens, listenHost, port, allowedHosts: values.consoleAllowedHosts });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new LocalError('config_invalid', `cannot listen on ${values.console}: ${(error as Error).message}`);
    }
    throw error;
  }
  write(`console at ${handle.url}`);
  if ((await tokens.list()).length === 0) {
    const { secret } = await tokens.create('admin', 'made at first start');
    write(`console token for admin, shown this once (make more on the Tokens page): ${secret}`);
  }
  return { handle, tokens };
}
