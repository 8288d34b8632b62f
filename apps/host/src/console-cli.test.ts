import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openStateStore } from '@toolshed/state';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let directory: string;
let workspace: string;
let config: string;
let env: Record<string, string>;

interface Served {
  child: ChildProcess;
  stderr: () => string;
  consoleUrl: string;
  mcpUrl: string;
}

/** `toolshed serve` over HTTP with the console, both on free ports, once both say where they are. */
async function serveWithConsole(extraEnv: Record<string, string> = {}): Promise<Served> {
  const child = spawn(
    process.execPath,
    [bin, 'serve', '--config', config, '--http', '127.0.0.1:0', '--console', '127.0.0.1:0'],
    { env: { ...env, ...extraEnv }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  await expect.poll(() => /serving MCP over HTTP at/.test(stderr), { timeout: 20_000 }).toBe(true);
  return {
    child,
    stderr: () => stderr,
    consoleUrl: /console at (\S+)/.exec(stderr)?.[1] ?? '',
    mcpUrl: /serving MCP over HTTP at (\S+)/.exec(stderr)?.[1] ?? '',
  };
}

async function stop(served: Served): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => served.child.once('exit', (code) => resolve(code)));
  served.child.kill('SIGTERM');
  return exited;
}

/** Logs in as a browser would: the login form's cookie and field, the token, the console's own Origin. */
async function logIn(base: string, token: string): Promise<string> {
  const form = await fetch(`${base}login`);
  const loginCookie = (form.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const answer = await fetch(`${base}login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: base.replace(/\/$/, ''),
      cookie: loginCookie,
    },
    body: new URLSearchParams({ csrf: loginCookie.split('=')[1] ?? '', token }).toString(),
  });
  expect(answer.status).toBe(303);
  return (answer.headers.getSetCookie().find((line) => line.startsWith('toolshed_console=')) ?? '').split(';')[0] ?? '';
}

/** A GET with a Host header of our choosing (fetch will not send one). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { headers: { host } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-console-cli-'));
  workspace = join(directory, 'workspace');
  mkdirSync(workspace);
  config = join(directory, 'toolshed.json');
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { '@toolshed/server-filesystem': { directories: [workspace] } } }),
  );
  env = { ...(process.env as Record<string, string>), XDG_STATE_HOME: join(directory, 'state') };
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('toolshed serve --console', () => {
  it('prints the first token once; a client over HTTP that cannot ask waits for the console, which approves', async () => {
    const served = await serveWithConsole();
    try {
      const token = /console token for admin, shown this once[^:]*: (tsc_\S+)/.exec(served.stderr())?.[1] ?? '';
      expect(token).toMatch(/^tsc_/);
      // Kept in the state store as a digest, in a file only its owner can read.
      const stored = join(directory, 'state', 'toolshed', 'state.db');
      expect(readFileSync(stored).includes(token)).toBe(false);
      expect(statSync(stored).mode & 0o777).toBe(0o600);

      const base = served.consoleUrl;
      const cookie = await logIn(base, token);
      const servers = await fetch(`${base}servers`, { headers: { cookie } });
      expect(servers.status).toBe(200);
      expect(servers.headers.get('content-security-policy')).toMatch(/script-src 'self'.*frame-ancestors 'none'/);
      expect(servers.headers.get('x-frame-options')).toBe('DENY');
      expect(await servers.text()).toContain('filesystem_write_file');

      const client = new Client({ name: 'no-elicitation', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(new URL(served.mcpUrl)));
      try {
        const target = join(workspace, 'from-http.txt');
        const call = client.callTool(
          { name: 'filesystem_write_file', arguments: { path: target, content: 'approved over HTTP' } },
          undefined,
          { timeout: 60_000 },
        );
        let list = '';
        await expect
          .poll(
            async () => {
              list = await (await fetch(`${base}approvals/list`, { headers: { cookie } })).text();
              return list.includes('data-approval-id');
            },
            { timeout: 20_000 },
          )
          .toBe(true);
        const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(list)?.[1] ?? '';
        const id = /data-approval-id="([^"]+)"/.exec(list)?.[1] ?? '';
        const decide = (origin: string | undefined) =>
          fetch(`${base}approvals/${id}`, {
            method: 'POST',
            redirect: 'manual',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              cookie,
              ...(origin === undefined ? {} : { origin }),
            },
            body: new URLSearchParams({
              csrf: field('csrf'),
              tool: field('tool'),
              digest: field('digest'),
              decision: 'approve',
            }).toString(),
          });
        expect((await decide(undefined)).status).toBe(403);
        expect((await decide('http://127.0.0.1:1')).status).toBe(403);
        expect(existsSync(target)).toBe(false);
        expect((await decide(base.replace(/\/$/, ''))).status).toBe(303);
        const result = (await call) as { isError?: boolean };
        expect(result.isError).toBeFalsy();
        expect(readFileSync(target, 'utf8')).toBe('approved over HTTP');
        expect((await decide(base.replace(/\/$/, ''))).status).toBe(409);
      } finally {
        await client.close();
      }
      expect(await getWithHost(`${base}login`, 'evil.example')).toBe(403);
      expect((await fetch(`${base}servers`, { redirect: 'manual' })).status).toBe(303);
    } finally {
      expect(await stop(served)).not.toBeNull();
    }
    // Tokens exist now: a second start prints none.
    const again = await serveWithConsole();
    try {
      expect(again.stderr()).not.toMatch(/console token for admin/);
    } finally {
      await stop(again);
    }
  }, 90_000);

  it('takes console tokens on an HTTP endpoint that requires auth, each as its user, until revoked', async () => {
    const state = mkdtempSync(join(directory, 'state-'));
    const served = await serveWithConsole({
      XDG_STATE_HOME: state,
      TOOLSHED_HTTP_TOKENS: 'a-static-team-token-0123456789',
    });
    try {
      const token = /console token for admin, shown this once[^:]*: (tsc_\S+)/.exec(served.stderr())?.[1] ?? '';
      const connect = async (bearer: string) => {
        const client = new Client({ name: 'token-user', version: '1' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(served.mcpUrl), {
            requestInit: { headers: { authorization: `Bearer ${bearer}` } },
          }),
        );
        return client;
      };
      const client = await connect(token);
      const result = (await client.callTool({ name: 'filesystem_list_allowed_directories', arguments: {} })) as {
        isError?: boolean;
      };
      expect(result.isError).toBeFalsy();
      await client.close();
      const store = await openStateStore({ location: join(state, 'toolshed', 'state.db') });
      try {
        await expect
          .poll(async () => (await store.audit.query({ limit: 10 })).records.map((record) => record.caller))
          .toContain('token-user/1 as admin');
      } finally {
        await store.close();
      }
      await expect(connect('tsc_not-a-console-token-at-all')).rejects.toThrow(/401|Unauthorized|not valid/i);

      const base = served.consoleUrl;
      const cookie = await logIn(base, token);
      const page = await (await fetch(`${base}tokens`, { headers: { cookie } })).text();
      const id = /data-token-id="([0-9a-f]+)"/.exec(page)?.[1] ?? '';
      const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
      const revoked = await fetch(`${base}tokens/${id}/revoke`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie,
          origin: base.replace(/\/$/, ''),
        },
        body: new URLSearchParams({ csrf }).toString(),
      });
      expect(revoked.status).toBe(303);
      await expect(connect(token)).rejects.toThrow(/401|Unauthorized|not valid/i);
      expect((await fetch(`${base}servers`, { headers: { cookie }, redirect: 'manual' })).status).toBe(303);
    } finally {
      await stop(served);
    }
  }, 60_000);

  it('refuses a console on a non-loopback address without allowed host names, in one line', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--config', config, '--console', '0.0.0.0:0'], {
      env,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toMatch(/not loopback: name the host names browsers will use with --console-allowed-hosts/);
  }, 30_000);
});
