import { type ChildProcess, spawn } from 'node:child_process';

export interface SpawnedHttpServer {
  /** The endpoint the server announced, as in `http://127.0.0.1:PORT/mcp`. */
  url: URL;
  child: ChildProcess;
  /** Sends SIGTERM and resolves with the exit code once the process is gone. */
  stop(): Promise<number | null>;
}

/**
 * Starts a server script with Node (`--http 127.0.0.1:0` among its
 * arguments) and resolves once it announces its endpoint on stderr, as every
 * bin built on the CLI kit does; rejects with its stderr if it exits first.
 *
 * @example
 * const server = await spawnHttpServer([binPath, '--http', '127.0.0.1:0']);
 * await client.connect(new StreamableHTTPClientTransport(server.url));
 * await server.stop();
 */
export function spawnHttpServer(
  args: readonly string[],
  options?: { env?: NodeJS.ProcessEnv },
): Promise<SpawnedHttpServer> {
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: options?.env ?? process.env,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let stderr = '';
    const onData = (chunk: Buffer) => {
      stderr += chunk.toString();
      const found = /at (http:\/\/\S+\/mcp)/.exec(stderr);
      if (found?.[1] === undefined) return;
      child.stderr?.off('data', onData);
      resolve({
        url: new URL(found[1]),
        child,
        stop: () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code} before serving: ${stderr}`)));
  });
}
