import { spawn } from 'node:child_process';
import type { BinUnderTest } from './check-bin.ts';

/** Says at exit, on stderr, whether any module of an `@opentelemetry` package was loaded (Node's module hooks). */
const probe = `data:text/javascript,${encodeURIComponent(
  'import { registerHooks } from "node:module";' +
    'let loaded = false;' +
    'registerHooks({ load(url, context, next) { if (url.includes("@opentelemetry")) loaded = true; return next(url, context); } });' +
    'process.on("exit", () => process.stderr.write("opentelemetry loaded: " + loaded + "\\n"));',
)}`;

/**
 * Starts a bin over stdio with a module-load probe, has it answer
 * `initialize` and `tools/list`, closes its stdin and resolves whether any
 * `@opentelemetry` module was loaded in its process: the check that telemetry
 * off costs nothing at start.
 *
 * @example
 * expect(await loadsOpenTelemetry({ bin: [binPath], env: withoutOtelVariables })).toBe(false);
 */
export function loadsOpenTelemetry(target: BinUnderTest): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', probe, ...target.bin], {
      env: target.env ?? process.env,
      stdio: 'pipe',
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (chunk.includes('"id":2')) child.stdin.end();
    });
    child.once('exit', () => {
      const said = /opentelemetry loaded: (true|false)/.exec(stderr);
      if (said === null) reject(new Error(`the bin said nothing of what it loaded: ${stderr.slice(0, 500)}`));
      else resolve(said[1] === 'true');
    });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    };
    child.stdin.write(`${JSON.stringify(initialize)}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`);
    child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
  });
}
