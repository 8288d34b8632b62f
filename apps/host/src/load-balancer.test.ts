import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  alivePids,
  type MessageRecording,
  processTree,
  recordMessages,
  type SpawnedHttpServer,
  serviceGate,
  spawnHttpServer,
} from '@toolshed/mcp-core/testing';
import { openStateStore } from '@toolshed/state';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NginxAccessEntry } from './__fixtures__/nginx-load-balancer-config.ts';
import { type NginxLoadBalancer, nginxBinary, startNginxLoadBalancer } from './__fixtures__/nginx-server.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;
const prefixes = ['r1-', 'r2-', 'r3-'] as const;
const names = ['apple', 'pear', 'plum'];
const clientInfo = { name: 'load-balancer-test', version: '1.0.0' };

// DESIGN.md "Real services in tests": skip without the service, unless CI says it must be there.
const nginxInstalled = serviceGate({ name: 'nginx', binary: nginxBinary, debianPackage: 'nginx' }, it);

/** A sql_query result's rows as JSON, or the whole result when it is an error. */
function rowsOf(result: unknown): string {
  const { isError, structuredContent } = result as { isError?: boolean; structuredContent?: { rows?: unknown } };
  return isError === true ? `error: ${JSON.stringify(result)}` : JSON.stringify(structuredContent?.rows);
}

function countBy<Item>(items: readonly Item[], key: (item: Item) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

describe.runIf(nginxInstalled)('three replicas of the host behind nginx', () => {
  let directory: string;
  let nginxDirectory: string;
  let replicas: SpawnedHttpServer[] = [];
  let nginx: NginxLoadBalancer | undefined;
  /** Replica addresses (`127.0.0.1:PORT`, as nginx logs them), in the order of `prefixes`. */
  let addresses: string[] = [];
  /** The replica a session id says it belongs to. */
  const homeOf = (sessionId: string) => prefixes.findIndex((prefix) => sessionId.startsWith(prefix));

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-load-balancer-'));
    nginxDirectory = mkdtempSync(join(tmpdir(), 'toolshed-nginx-'));
    const database = new Database(join(directory, 'shop.db'));
    database.exec(
      "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO items (name) VALUES ('apple'), ('pear'), ('plum');",
    );
    database.close();
    const config = join(directory, 'toolshed.json');
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          '@toolshed/server-sql': {
            databases: join(directory, 'shop.db'),
            // A read-only tool that asks first, so that a 2026-era call takes two rounds.
            approval: { require: ['list_tables'] },
          },
        },
      }),
    );
    // One key for every replica: a round's requestState, sealed by one, is opened by another.
    const requestStateKey = randomBytes(32).toString('base64url');
    const started = await Promise.allSettled(
      prefixes.map((prefix, index) =>
        spawnHttpServer([bin, 'serve', '--config', config, '--http', '127.0.0.1:0', '--http-session-prefix', prefix], {
          env: {
            ...process.env,
            XDG_STATE_HOME: join(directory, `replica-${index + 1}`),
            TOOLSHED_REQUEST_STATE_KEY: requestStateKey,
          },
        }),
      ),
    );
    replicas = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = started.find((result) => result.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    addresses = replicas.map((replica) => replica.url.host);
    nginx = await startNginxLoadBalancer(
      nginxDirectory,
      replicas.map((replica, index) => ({ sessionPrefix: prefixes[index] ?? '', address: replica.url.host })),
    );
  }, 120_000);

  // The last test stops everything and checks; this is for a run that ends before it.
  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(replicas.map((replica) => replica.stop()));
    rmSync(directory, { recursive: true, force: true });
    rmSync(nginxDirectory, { recursive: true, force: true });
  }, 30_000);

  /** The access log's entries from index `from` on, once nginx has logged `until` of them. */
  async function loggedSince(from: number, until: (entries: NginxAccessEntry[]) => boolean) {
    const balancer = nginx as NginxLoadBalancer;
    // nginx logs a request after its response has gone, so the last lines may trail the client by a moment.
    await expect.poll(() => until(balancer.accessLog().slice(from)), { timeout: 10_000 }).toBe(true);
    return balancer.accessLog().slice(from);
  }

  async function modernClient(options: { elicitation?: boolean } = {}) {
    const client = new ClientV2(clientInfo, {
      capabilities: options.elicitation === true ? { elicitation: { form: {} } } : {},
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    });
    if (options.elicitation === true) {
      client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { confirmed: true } }));
    }
    const recording = recordMessages(new TransportV2((nginx as NginxLoadBalancer).url));
    await client.connect(recording.transport);
    return { client, recording };
  }

  it('serves 1,000 calls of a 2026-era client round-robin over every replica, none failing', async () => {
    const { client, recording } = await modernClient();
    const from = (nginx as NginxLoadBalancer).accessLog().length;
    const lanes = 10;
    const callsPerLane = 100;
    const failures: string[] = [];
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let call = 0; call < callsPerLane; call++) {
          const id = ((lane * callsPerLane + call) % 3) + 1;
          const result = await client.callTool({
            name: 'sql_query',
            arguments: { sql: 'SELECT name FROM items WHERE id = ?', params: [id] },
          });
          const rows = rowsOf(result);
          if (rows !== JSON.stringify([[names[id - 1]]])) failures.push(`id ${id}: ${rows}`);
        }
      }),
    );
    await client.close();
    expect(failures).toEqual([]);
    expect(recording.protocolVersion).toBe('2026-07-28');
    expect(recording.specViolations()).toEqual([]);

    const calls = (
      await loggedSince(from, (entries) => entries.filter((entry) => entry.mcpMethod === 'tools/call').length >= 1000)
    ).filter((entry) => entry.mcpMethod === 'tools/call');
    expect(calls).toHaveLength(1000);
    expect(calls.every((entry) => entry.status === 200 && entry.mcpName === 'sql_query' && entry.session === '')).toBe(
      true,
    );
    const perReplica = countBy(calls, (entry) => entry.upstream);
    expect(Object.keys(perReplica).sort()).toEqual([...addresses].sort());
    // Round-robin deals the calls out in turn: each replica served a third of them.
    for (const address of addresses) expect(perReplica[address]).toBeGreaterThanOrEqual(333);
  }, 300_000);

  it('answers a round of questions on one replica and the retry on another, with one shared key', async () => {
    const { client, recording } = await modernClient({ elicitation: true });
    const from = (nginx as NginxLoadBalancer).accessLog().length;
    // Three two-round calls one after another: round-robin sends each retry to the next replica.
    for (let call = 0; call < 3; call++) {
      const result = await client.callTool({ name: 'sql_list_tables', arguments: {} });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.structuredContent)).toMatch(/items/);
    }
    await client.close();
    expect(recording.specViolations()).toEqual([]);

    const attempts = (
      await loggedSince(from, (entries) => entries.filter((entry) => entry.mcpName === 'sql_list_tables').length >= 6)
    ).filter((entry) => entry.mcpName === 'sql_list_tables');
    expect(attempts).toHaveLength(6);
    const pairs = [0, 2, 4].map((index) => [attempts[index]?.upstream, attempts[index + 1]?.upstream]);
    for (const [asked, answered] of pairs) expect(asked).not.toBe(answered);
    // Every replica opened a requestState another replica sealed.
    expect(new Set(pairs.map(([, answered]) => answered))).toEqual(new Set(addresses));
    // Each replica's own store records the approved call it ran.
    const stores = await Promise.all(
      [1, 2, 3].map((replica) =>
        openStateStore({ location: join(directory, `replica-${replica}`, 'toolshed', 'state.db') }),
      ),
    );
    try {
      await expect
        .poll(() =>
          Promise.all(
            stores.map(
              async (store) =>
                (await store.audit.query({ tool: 'sql_list_tables', limit: 10 })).records.filter(
                  (record) => record.approval === 'approved' && record.outcome === 'ok',
                ).length,
            ),
          ),
        )
        .toEqual([1, 1, 1]);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('keeps 2025-era sessions on the replica their id names, across many calls, with SDK v1 and v2', async () => {
    const balancer = nginx as NginxLoadBalancer;
    const from = balancer.accessLog().length;
    const sessions: { client: ClientV1 | ClientV2; recording: MessageRecording; sessionId: string }[] = [];
    try {
      for (let index = 0; index < 6; index++) {
        const v1 = index % 2 === 0;
        const client = v1
          ? new ClientV1(clientInfo)
          : new ClientV2(clientInfo, { versionNegotiation: { mode: 'legacy' } });
        const recording = recordMessages(v1 ? new TransportV1(balancer.url) : new TransportV2(balancer.url));
        await client.connect(recording.transport as never);
        sessions.push({ client, recording, sessionId: recording.transport.sessionId ?? '' });
      }
      // Each initialize went round-robin, so the six sessions are spread over the three replicas.
      expect(countBy(sessions, (session) => session.sessionId.slice(0, 3))).toEqual({ 'r1-': 2, 'r2-': 2, 'r3-': 2 });

      const failures: string[] = [];
      await Promise.all(
        sessions.map(async ({ client }) => {
          for (let call = 0; call < 50; call++) {
            const id = (call % 3) + 1;
            const rows = rowsOf(
              await client.callTool({
                name: 'sql_query',
                arguments: { sql: 'SELECT id FROM items WHERE id = ?', params: [id] },
              }),
            );
            if (rows !== `[[${id}]]`) failures.push(`id ${id}: ${rows}`);
          }
        }),
      );
      expect(failures).toEqual([]);
      for (const { recording } of sessions) {
        expect(recording.protocolVersion).toBe('2025-11-25');
        expect(recording.specViolations()).toEqual([]);
      }

      // Without the pin a session is unknown anywhere but at home.
      const sessionId = sessions[0]?.sessionId ?? '';
      const elsewhere = replicas[(homeOf(sessionId) + 1) % replicas.length] as SpawnedHttpServer;
      const stray = await fetch(elsewhere.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(stray.status).toBe(404);
    } finally {
      await Promise.all(sessions.map(({ client }) => client.close()));
    }

    const entries = await loggedSince(
      from,
      (logged) => logged.filter((entry) => entry.session !== '' && entry.method === 'POST').length >= 6 * 51,
    );
    // Each session was created by the replica its prefix names, and every later request went back there.
    const created = entries.filter((entry) => entry.session === '' && entry.newSession !== '');
    expect(created.map((entry) => entry.newSession).sort()).toEqual(
      sessions.map((session) => session.sessionId).sort(),
    );
    expect(created.filter((entry) => entry.upstream !== addresses[homeOf(entry.newSession)])).toEqual([]);
    const pinned = entries.filter((entry) => entry.session !== '');
    expect(pinned.filter((entry) => entry.upstream !== addresses[homeOf(entry.session)])).toEqual([]);
    expect(pinned.filter((entry) => entry.status >= 400)).toEqual([]);
  }, 120_000);

  it('stops nginx gracefully and every replica on SIGTERM, leaving no process behind', async () => {
    const processes = [
      ...processTree((nginx as NginxLoadBalancer).pid),
      ...replicas.flatMap((replica) => processTree(replica.child.pid ?? 0)),
    ];
    // nginx's master and worker, and each replica with the query process its SQL server started.
    expect(processes.length).toBeGreaterThanOrEqual(2 + 2 * replicas.length);
    await (nginx as NginxLoadBalancer).stop();
    expect(await Promise.all(replicas.map((replica) => replica.stop()))).toEqual([143, 143, 143]);
    await expect.poll(() => alivePids(processes), { timeout: 10_000 }).toEqual([]);
  }, 30_000);
});
