import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serviceGate } from '@toolshed/mcp-core/testing';
import type { StateStore } from '@toolshed/state';
import { type PostgresStateServer, postgresStateService } from '@toolshed/state/testing';
import { chromiumService, launchChromium } from '@toolshed/view-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleLogin, decideInConsole } from './__fixtures__/console-session.ts';
import { type HostReplica, startHostReplicaSet } from './__fixtures__/host-replica.ts';
import { type NginxLoadBalancer, nginxBinary } from './__fixtures__/nginx-server.ts';

const { createHash } = process.getBuiltinModule('node:crypto');
const prefixes = ['r1-', 'r2-', 'r3-'] as const;
const clientInfo = { name: 'shared-state-test', version: '1.0.0' };

const ready =
  serviceGate({ name: 'nginx', binary: nginxBinary, debianPackage: 'nginx' }, it) &&
  serviceGate(postgresStateService, it) &&
  serviceGate(chromiumService, it);

type Replica = HostReplica;

describe.runIf(ready)('three replicas of the host sharing one PostgreSQL store, behind nginx', () => {
  let directory: string;
  let workspace: string;
  let postgres: PostgresStateServer;
  let store: StateStore;
  let replicas: Replica[] = [];
  let nginx: NginxLoadBalancer | undefined;
  let token: string;
  let stopSet: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-shared-state-'));
    workspace = join(directory, 'workspace');
    mkdirSync(workspace);
    writeFileSync(join(workspace, 'seen.txt'), 'seen');
    const set = await startHostReplicaSet({
      directory,
      sessionPrefixes: prefixes,
      config: {
        toolshed: { approval: { mode: 'console' } },
        mcpServers: {
          files: {
            package: '@toolshed/server-filesystem',
            options: { directories: [workspace] },
            rateLimit: { perMinute: 30 },
            tools: { allow: ['list_allowed_directories'] },
          },
          writer: {
            package: '@toolshed/server-filesystem',
            options: { directories: [workspace] },
            tools: { allow: ['write_file'] },
          },
          counted: {
            package: '@toolshed/server-filesystem',
            options: { directories: [workspace] },
            tools: { allow: ['get_file_info'] },
          },
          maker: {
            package: '@toolshed/server-filesystem',
            options: { directories: [workspace] },
            tools: { allow: ['create_directory'] },
          },
        },
      },
    });
    ({ replicas, nginx, postgres, store } = set);
    stopSet = set.stop;
    token = set.operatorToken;
  }, 400_000);

  afterAll(async () => {
    await stopSet?.();
    rmSync(directory, { recursive: true, force: true });
  }, 60_000);

  async function modernClient() {
    const client = new ClientV2(clientInfo, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new TransportV2((nginx as NginxLoadBalancer).url));
    return client;
  }

  it('keeps a perMinute budget of 30 for all replicas together: of 90 calls round-robin, exactly 30 run', async () => {
    const client = await modernClient();
    const results = await Promise.all(
      Array.from({ length: 90 }, () => client.callTool({ name: 'files_list_allowed_directories', arguments: {} })),
    );
    await client.close();
    const ran = results.filter((result) => result.isError !== true);
    const limited = results.filter((result) => JSON.stringify(result.content).includes('allows 30 calls per minute'));
    expect(ran).toHaveLength(30);
    expect(limited).toHaveLength(60);
  }, 120_000);

  it('records 1,000 calls round-robin as exactly 1,000 completed rows, whichever replica ran them', async () => {
    const v1 = new ClientV1(clientInfo);
    await v1.connect(new TransportV1((nginx as NginxLoadBalancer).url));
    const modern = await modernClient();
    const clients = [v1, modern] as const;
    await Promise.all(
      Array.from({ length: 20 }, async (_, lane) => {
        const client = clients[lane % 2] as ClientV2;
        for (let call = 0; call < 50; call++) {
          const result = await client.callTool({ name: 'counted_get_file_info', arguments: { path: 'seen.txt' } });
          expect(result.isError).not.toBe(true);
        }
      }),
    );
    await v1.close();
    await modern.close();
    const page = await store.audit.query({ tool: 'counted_get_file_info', outcome: 'ok', limit: 1 });
    expect(page.matching).toBe(1000);
    expect((await store.audit.query({ tool: 'counted_get_file_info', limit: 1 })).matching).toBe(1000);
  }, 300_000);

  it('lets a call asked through one replica be approved in another replica’s console; two deciders at once make one decision', async () => {
    const sessions = await Promise.all(replicas.map((replica) => consoleLogin(replica.console, token)));
    const client = await modernClient();
    const target = join(workspace, 'approved.txt');
    const call = client.callTool({ name: 'writer_write_file', arguments: { path: target, content: 'once' } });
    await expect.poll(async () => (await store.approvals.pending(Date.now())).length, { timeout: 60_000 }).toBe(1);
    const [pending] = await store.approvals.pending(Date.now());
    // Every replica's console lists it.
    for (const [index, replica] of replicas.entries()) {
      const list = await (
        await fetch(`${replica.console}approvals/list`, { headers: { cookie: sessions[index]?.cookie ?? '' } })
      ).text();
      expect(list).toContain(pending?.id);
    }
    const asked = replicas.findIndex((replica) => pending?.replica.includes(`-${replica.child.pid}-`));
    const others = [0, 1, 2].filter((index) => index !== asked);
    const statuses = await Promise.all(
      others.map((index) =>
        decideInConsole(
          replicas[index]?.console ?? '',
          sessions[index] as { cookie: string; csrf: string },
          pending as never,
          'approve',
        ),
      ),
    );
    expect(statuses.sort()).toEqual([303, 409]);
    const result = await call;
    expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
    await client.close();
    expect(readdirSync(workspace)).toContain('approved.txt');
    const rows = await store.audit.query({ tool: 'writer_write_file', limit: 10 });
    expect(rows.records.map((record) => [record.outcome, record.approval])).toEqual([['ok', 'approved']]);
  }, 120_000);

  it('takes one decision when two people click Approve at the same moment in two replicas’ consoles in Chromium', async () => {
    const browser = await launchChromium();
    try {
      const [first, second] = [replicas[1] as Replica, replicas[2] as Replica];
      const pages = [browser.context.pages()[0] ?? (await browser.context.newPage()), await browser.context.newPage()];
      // Both consoles share the store, so one login is good on both (cookies are per host, not per port).
      const [firstPage, secondPage] = pages as [(typeof pages)[0], (typeof pages)[0]];
      await firstPage.goto(`${first.console}login`);
      await firstPage.getByLabel('Token').fill(token);
      await firstPage.getByRole('button', { name: 'Log in' }).click();
      await firstPage.waitForURL(`${first.console}servers`);
      const okBefore = (await store.audit.query({ tool: 'writer_write_file', outcome: 'ok', limit: 1 })).matching;
      const client = await modernClient();
      const target = join(workspace, 'clicked.txt');
      const call = client.callTool({ name: 'writer_write_file', arguments: { path: target, content: 'once' } });
      await expect.poll(async () => (await store.approvals.pending(Date.now())).length, { timeout: 60_000 }).toBe(1);
      await Promise.all([firstPage.goto(`${first.console}approvals`), secondPage.goto(`${second.console}approvals`)]);
      await Promise.all(pages.map((page) => page.getByRole('button', { name: 'Approve writer_write_file' }).waitFor()));
      // Both buttons pressed in the same instant: each page's live list would take the other's button away.
      const approve = (page: typeof firstPage) =>
        Promise.all([
          page.waitForNavigation(),
          page.evaluate(
            "[...document.querySelectorAll('button')].find((button) => button.textContent.startsWith('Approve writer_write_file')).click()",
          ),
        ]);
      await Promise.all([approve(firstPage), approve(secondPage)]);
      const notices = await Promise.all(pages.map((page) => page.locator('main').textContent()));
      expect(notices.filter((text) => /Approved: the call runs now/.test(text ?? ''))).toHaveLength(1);
      expect(notices.filter((text) => /already decided/.test(text ?? ''))).toHaveLength(1);
      const result = await call;
      expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
      await client.close();
      expect((await store.audit.query({ tool: 'writer_write_file', outcome: 'ok', limit: 1 })).matching).toBe(
        okBefore + 1,
      );
    } finally {
      await browser.close();
    }
  }, 120_000);

  it('logs a browser out on every replica when its token is revoked on one', async () => {
    const secret = `tsc_${randomBytes(32).toString('base64url')}`;
    await store.logins.addToken({
      id: '0123456789ab',
      user: 'temp',
      label: 'revoked',
      sha256: createHash('sha256').update(secret).digest('hex'),
      createdAt: new Date().toISOString(),
    });
    const first = replicas[0] as Replica;
    const second = replicas[1] as Replica;
    const session = await consoleLogin(first.console, secret);
    // The same browser's cookie works on another replica: the session is in the store.
    expect(
      (await fetch(`${second.console}servers`, { headers: { cookie: session.cookie }, redirect: 'manual' })).status,
    ).toBe(200);
    const revoke = await fetch(`${first.console}tokens/0123456789ab/revoke`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: first.console.replace(/\/$/, ''),
        cookie: session.cookie,
      },
      body: new URLSearchParams({ csrf: session.csrf }).toString(),
    });
    expect(revoke.status).toBe(303);
    for (const replica of replicas) {
      const response = await fetch(`${replica.console}servers`, {
        headers: { cookie: session.cookie },
        redirect: 'manual',
      });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/login');
    }
  });

  it('fails closed while PostgreSQL stops under load, says so on /readyz, and recovers when it is back, without restarts', async () => {
    const clients = await Promise.all(Array.from({ length: 8 }, () => modernClient()));
    const answers = { ok: 0, refused: 0, other: [] as string[] };
    let stop = false;
    // Calls go on through the outage: each answer is a success or the one fail-closed sentence, nothing else.
    const lanes = clients.map(async (client) => {
      while (!stop) {
        const result = await client.callTool({ name: 'counted_get_file_info', arguments: { path: 'seen.txt' } });
        const text = JSON.stringify(result.content);
        if (result.isError !== true) answers.ok += 1;
        else if (/was not run: the host cannot reach its state store/.test(text)) answers.refused += 1;
        else answers.other.push(text);
      }
    });
    await expect.poll(() => answers.ok, { timeout: 120_000 }).toBeGreaterThan(50);
    await postgres.pause();
    await expect.poll(() => answers.refused, { timeout: 120_000 }).toBeGreaterThan(10);
    const replica = replicas[0] as Replica;
    const readyz = await fetch(new URL('/readyz', replica.url));
    expect(readyz.status).toBe(503);
    const body = await readyz.json();
    expect(body).toMatchObject({ status: 'unavailable', reason: expect.stringMatching(/state store/) });
    expect(JSON.stringify(body)).not.toContain(postgres.env.PGPASSWORD);
    expect((await fetch(new URL('/healthz', replica.url))).status).toBe(200);
    const okDuringOutage = answers.ok;
    await postgres.resume();
    await expect
      .poll(async () => (await fetch(new URL('/readyz', replica.url))).status, { timeout: 30_000, interval: 250 })
      .toBe(200);
    await expect.poll(() => answers.ok, { timeout: 120_000 }).toBeGreaterThan(okDuringOutage + 50);
    stop = true;
    await Promise.all(lanes);
    await Promise.all(clients.map((client) => client.close()));
    expect(answers.other).toEqual([]);
    // Every call that ran has its completed row; none is left started.
    await expect
      .poll(
        async () => (await store.audit.query({ tool: 'counted_get_file_info', outcome: 'started', limit: 1 })).matching,
        {
          timeout: 20_000,
        },
      )
      .toBe(0);
  }, 400_000);

  it('under 64 clients of both eras, a replica killed with SIGKILL leaves every answered call recorded, every unfinished one interrupted, and nothing run twice', async () => {
    const load = join(workspace, 'load');
    mkdirSync(load);
    const alive = replicas.filter((replica) => replica.child.exitCode === null && replica.child.signalCode === null);
    const victim = alive[0] as Replica;
    const answered: string[] = [];
    let stop = false;
    const clients = await Promise.all(
      Array.from({ length: 64 }, async (_, index) => {
        if (index % 2 === 0) return modernClient();
        const v1 = new ClientV1(clientInfo);
        await v1.connect(new TransportV1((nginx as NginxLoadBalancer).url));
        return v1 as unknown as ClientV2;
      }),
    );
    const lanes = clients.map(async (client, lane) => {
      for (let call = 0; !stop && call < 200; call++) {
        const name = `${lane}-${call}`;
        try {
          const result = await client.callTool({
            name: 'maker_create_directory',
            arguments: { path: join(load, name) },
          });
          if (result.isError !== true) answered.push(name);
        } catch {
          // A call on the killed replica (or a session it held) fails: the client sees it fail.
        }
      }
    });
    await expect.poll(() => answered.length, { timeout: 120_000 }).toBeGreaterThan(200);
    victim.child.kill('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    stop = true;
    await Promise.all(lanes);
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    // The sweeper ends what the dead replica left.
    await expect
      .poll(
        async () =>
          (await store.audit.query({ tool: 'maker_create_directory', outcome: 'started', limit: 1 })).matching,
        {
          timeout: 20_000,
          interval: 250,
        },
      )
      .toBe(0);
    const ok = (await store.audit.query({ tool: 'maker_create_directory', outcome: 'ok', limit: 1 })).matching;
    const interrupted = await store.audit.query({
      tool: 'maker_create_directory',
      outcome: 'interrupted',
      limit: 1000,
    });
    const made = readdirSync(load);
    // Every answer a client received is a completed row; every directory made has a row; none was made twice.
    expect(ok).toBeGreaterThanOrEqual(answered.length);
    expect(made.length).toBeGreaterThanOrEqual(answered.length);
    expect(made.length).toBeLessThanOrEqual(ok + interrupted.matching);
    expect(new Set(made).size).toBe(made.length);
    expect(interrupted.records.every((record) => record.replica.includes(`-${victim.child.pid}-`))).toBe(true);
  }, 400_000);

  it('ends the console wait of a replica killed with SIGKILL as interrupted, and never runs the call', async () => {
    const client = await modernClient();
    const target = join(workspace, 'never.txt');
    const call = client
      .callTool({ name: 'writer_write_file', arguments: { path: target, content: 'never' } })
      .catch((error: unknown) => error);
    await expect.poll(async () => (await store.approvals.pending(Date.now())).length, { timeout: 60_000 }).toBe(1);
    const [pending] = await store.approvals.pending(Date.now());
    const holder = replicas.find((replica) => pending?.replica.includes(`-${replica.child.pid}-`)) as Replica;
    holder.child.kill('SIGKILL');
    await call;
    await client.close().catch(() => {});
    await expect
      .poll(async () => (await store.approvals.get(pending?.id ?? ''))?.decision, { timeout: 20_000, interval: 250 })
      .toBe('interrupted');
    const rows = await store.audit.query({ tool: 'writer_write_file', limit: 10 });
    expect(rows.records[0]).toMatchObject({ outcome: 'interrupted', replica: pending?.replica });
    const survivor = replicas.find(
      (replica) => replica !== holder && replica.child.exitCode === null && replica.child.signalCode === null,
    ) as Replica;
    const session = await consoleLogin(survivor.console, token);
    expect(await decideInConsole(survivor.console, session, pending as never, 'approve')).toBe(409);
    expect(readdirSync(workspace)).not.toContain('never.txt');
  }, 120_000);
});
