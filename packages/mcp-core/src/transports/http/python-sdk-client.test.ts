import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMcpServer } from '../../server/create-mcp-server.ts';
import { defineTool } from '../../tools/define-tool.ts';
import { type HttpServerHandle, serveHttp } from './serve-http.ts';

// The Python SDK client refuses any SSE event over 1 MiB; a 5 MB answer must reach it as a JSON body.
const python = process.env.TOOLSHED_PYTHON_MCP ?? 'python3';
const script = fileURLToPath(new URL('../../__fixtures__/python-sdk-client.py', import.meta.url));
const hasPythonClient =
  spawnSync(python, ['-c', 'import mcp.client.streamable_http'], { stdio: 'ignore' }).status === 0;
if (!hasPythonClient) {
  process.stderr.write(
    `skipping the Python SDK client test: install it (pip install mcp) and set TOOLSHED_PYTHON_MCP to that python\n`,
  );
}

const fiveMegabytes = 'x'.repeat(5_000_000);

describe.skipIf(!hasPythonClient)('the official Python SDK client over Streamable HTTP', () => {
  let http: HttpServerHandle;

  beforeAll(async () => {
    const server = createMcpServer({
      name: 'python-check',
      version: '1.0.0',
      tools: [
        defineTool({
          name: 'big',
          description: 'Returns five million characters.',
          input: z.object({}),
          run: () => fiveMegabytes,
        }),
      ],
    });
    http = await serveHttp(server, { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await http.close();
  });

  it('reads a 5 MB result in both eras', async () => {
    const { stdout } = await promisify(execFile)(python, [script, http.url, 'big'], {
      maxBuffer: 1024 * 1024,
    });
    const calls = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { era: string; tool: string; ok: boolean; length?: number; error?: string });
    expect(calls).toEqual([
      { era: '2025', tool: 'big', ok: true, length: fiveMegabytes.length },
      { era: '2026', tool: 'big', ok: true, length: fiveMegabytes.length },
    ]);
  }, 120_000);
});
