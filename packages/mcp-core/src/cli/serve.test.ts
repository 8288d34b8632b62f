import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { spawnHttpServer } from '../testing/spawn-http-server.ts';
import { httpOptionsFromCli } from './serve.ts';

const exampleServer = new URL('../../examples/example-server.ts', import.meta.url).pathname;

describe('serve: the --http flags', () => {
  it.each([
    ['3000', { host: '127.0.0.1', port: 3000 }],
    ['0.0.0.0:8080', { host: '0.0.0.0', port: 8080 }],
    ['[::1]:9000', { host: '::1', port: 9000 }],
    ['localhost:1', { host: 'localhost', port: 1 }],
  ])('reads --http %s', (value, expected) => {
    expect(httpOptionsFromCli({ http: value }, {})).toEqual(expected);
  });

  it.each([['http://x:1'], ['70000'], ['host:'], ['']])('refuses --http %j with a clear message', (value) => {
    expect(() => httpOptionsFromCli({ http: value }, {})).toThrow(/--http must be PORT or HOST:PORT/);
  });

  it('takes bearer tokens from the environment, never from a flag, and the JWT issuer from flags', () => {
    const options = httpOptionsFromCli(
      { http: '3000', httpJwtIssuer: 'https://auth.example', httpRequiredScopes: ['mcp'] },
      { TOOLSHED_HTTP_TOKENS: 'aaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbb' },
    );
    expect(options.auth).toEqual({
      tokens: ['aaaaaaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbbbbbb'],
      jwt: { issuer: 'https://auth.example' },
      requiredScopes: ['mcp'],
    });
  });

  it('serves a bin over HTTP with --http, and stops gracefully on SIGTERM', async () => {
    const server = await spawnHttpServer([exampleServer, '--http', '127.0.0.1:0']);
    const client = new Client({ name: 'cli-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(server.url));
    expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toMatchObject({
      structuredContent: { sum: 3 },
    });
    await client.close();
    expect(await server.stop()).toBe(143);
  });

  it('exits 2 with one line when the address cannot be served', async () => {
    const child = spawn(process.execPath, [exampleServer, '--http', '0.0.0.0:0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^toolshed-example: Refusing to serve 0\.0\.0\.0 without auth/);
  });
});
