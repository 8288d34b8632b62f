import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awaitTask, connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import type { StateStore } from '@toolshed/state';
import { postgresStateService } from '@toolshed/state/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleLogin, decideInConsole } from './__fixtures__/console-session.ts';
import { type HostReplica, type HostReplicaSet, startHostReplicaSet } from './__fixtures__/host-replica.ts';
import { type NginxLoadBalancer, nginxBinary } from './__fixtures__/nginx-server.ts';
import { type SdkHttpServer, startSdkHttpServer } from './__fixtures__/sdk-http-server.ts';

const prefixes = ['t1-', 't2-', 't3-'] as const;

const ready =
  serviceGate({ name: 'nginx', binary: nginxBinary, debianPackage: 'nginx' }, it) &&
  serviceGate(postgresStateService, it);

/** Whether a replica's process still runs. */
const running = (replica: HostReplica) => replica.child.exitCode === null && replica.child.signalCode === null;

describe.runIf(ready)(
  'long calls on three replicas of the host behind nginx sharing PostgreSQL: tasks, and retries relayed to the replica holding their call',
  () => {
    let directory: string;
    let workspace: string;
    let set: HostReplicaSet | undefined;
    let store: StateStore;
    let replicas: HostReplica[] = [];
    let nginx: NginxLoadBalancer | undefined;
    let token: string;
    let remote: SdkHttpServer | undefined;
    const clients: TestClient[] = [];

    beforeAll(async () => {
      directory = mkdtempSync(join(tmpdir(), 'toolshed-host-tasks-'));
      workspace = join(directory, 'workspace');
      mkdirSync(workspace);
      // A legacy server over HTTP that asks in the middle of a call: each replica holds its own session to it.
      remote = await startSdkHttpServer();
      set = await startHostReplicaSet({
        directory,
        sessionPrefixes: prefixes,
        config: {
          toolshed: { approval: { mode: 'console' } },
          mcpServers: {
            writer: {
              package: '@toolshed/server-filesystem',
              options: { directories: [workspace] },
              tools: { allow: ['write_file'] },
            },
            old: { url: remote.url, tools: { allow: ['note_then_ask'] } },
          },
        },
      });
      ({ replicas, nginx, store } = set);
      token = set.operatorToken;
    }, 400_000);

    afterAll(async () => {
      for (const client of clients) await client.close().catch(() => {});
      await set?.stop();
      await remote?.close();
      rmSync(directory, { recursive: true, force: true });
    }, 60_000);

    /** An official SDK v2 client in 2026 mode that takes tasks and cannot ask its user anything. */
    async function tasksClient(url: URL): Promise<TestClient> {
      const client = await connectTestClient({ url }, { client: 'v2-modern', transport: 'http', tasks: true });
      clients.push(client);
      return client;
    }

    /** Asks the host to write a file: the tool needs a human's yes in the console, so the call waits there. */
    async function writeThroughConsole(client: TestClient, file: string): Promise<string> {
      const created = await client.request('tools/call', {
        name: 'writer_write_file',
        arguments: { path: join(workspace, file), content: `written: ${file}` },
      });
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      expect(created.statusMessage).toMatch(/waiting for approval of writer_write_file in the Toolshed console/);
      return created.taskId as string;
    }

    async function pendingApprovalOf(file: string) {
      let found: Awaited<ReturnType<StateStore['approvals']['pending']>>[number] | undefined;
      await expect
        .poll(
          async () => {
            const pending = await store.approvals.pending(Date.now());
            found = pending.find((approval) => String(approval.arguments.path).endsWith(file));
            return found !== undefined;
          },
          { timeout: 60_000 },
        )
        .toBe(true);
      return found as NonNullable<typeof found>;
    }

    it('a destructive call from a client that cannot ask becomes a task at once, waits in the console past 90 s, is approved there, and completes', async () => {
      const client = await tasksClient((nginx as NginxLoadBalancer).url);
      const taskId = await writeThroughConsole(client, 'ninety.txt');
      const approval = await pendingApprovalOf('ninety.txt');
      // Past the minute after which clients give up on a request: polled through nginx, any replica answers.
      const until = Date.now() + 90_000;
      while (Date.now() < until) {
        const task = await client.request('tasks/get', { taskId });
        expect(task.status).toBe('working');
        await new Promise((resolve) => setTimeout(resolve, Math.min(Number(task.pollIntervalMs), until - Date.now())));
      }
      expect(readdirSync(workspace)).not.toContain('ninety.txt');
      const decider = replicas[2] as HostReplica;
      const session = await consoleLogin(decider.console, token);
      expect(await decideInConsole(decider.console, session, approval, 'approve')).toBe(303);
      const done = await awaitTask(client, taskId);
      expect(done.status).toBe('completed');
      expect((done.result as { isError?: boolean }).isError, JSON.stringify(done.result)).not.toBe(true);
      expect(readFileSync(join(workspace, 'ninety.txt'), 'utf8')).toBe('written: ninety.txt');
      const rows = await store.audit.query({ tool: 'writer_write_file', outcome: 'ok', limit: 10 });
      expect(rows.records.map((record) => record.approval)).toContain('approved');
      expect(client.recording.specViolations()).toEqual([]);
    }, 240_000);

    it('a task created on one replica is read and cancelled through another: the console request ends, nothing is written', async () => {
      const [first, second] = replicas as [HostReplica, HostReplica];
      const creator = await tasksClient(first.url);
      const other = await tasksClient(second.url);
      const taskId = await writeThroughConsole(creator, 'cancelled.txt');
      const approval = await pendingApprovalOf('cancelled.txt');
      expect(approval.replica).toContain(`-${first.child.pid}-`);
      expect(await other.request('tasks/get', { taskId })).toMatchObject({ taskId, status: 'working' });
      expect(await other.request('tasks/cancel', { taskId })).toMatchObject({ resultType: 'complete' });
      const ended = await awaitTask(other, taskId);
      expect(ended.status).toBe('cancelled');
      await expect
        .poll(async () => (await store.approvals.get(approval.id))?.decision, { timeout: 20_000 })
        .toBe('cancelled');
      const session = await consoleLogin(second.console, token);
      expect(await decideInConsole(second.console, session, approval, 'approve')).toBe(409);
      expect(readdirSync(workspace)).not.toContain('cancelled.txt');
      expect(other.recording.specViolations()).toEqual([]);
    }, 120_000);

    it("relays a caller's retry to the replica holding the legacy upstream's call, which runs once, whichever replica nginx picked", async () => {
      const asked: string[] = [];
      const client = await connectTestClient(
        { url: (nginx as NginxLoadBalancer).url },
        {
          client: 'v2-modern',
          transport: 'http',
          onElicit: (params) => {
            asked.push(String(params.message));
            return { action: 'accept', content: { keep: true } };
          },
        },
      );
      clients.push(client);
      const balancer = nginx as NginxLoadBalancer;
      const from = balancer.accessLog().length;
      const notedBefore = remote?.noted ?? 0;
      // Round-robin sends each retry to another replica than the one that started the call.
      for (const note of ['milk', 'eggs', 'tea']) {
        const result = await client.callTool('old_note_then_ask', { note });
        expect(result.content[0]?.text, JSON.stringify(result)).toBe(`kept ${note}`);
      }
      expect(asked).toEqual(['Keep the note "milk"?', 'Keep the note "eggs"?', 'Keep the note "tea"?']);
      // Each upstream call ran once: the retries were answered by the replica holding it, never started again.
      expect((remote?.noted ?? 0) - notedBefore).toBe(3);
      await expect
        .poll(
          () =>
            balancer
              .accessLog()
              .slice(from)
              .filter((entry) => entry.mcpName === 'old_note_then_ask').length,
        )
        .toBe(6);
      const attempts = balancer
        .accessLog()
        .slice(from)
        .filter((entry) => entry.mcpName === 'old_note_then_ask');
      const crossed = [0, 2, 4].filter((index) => attempts[index]?.upstream !== attempts[index + 1]?.upstream);
      expect(crossed.length).toBeGreaterThan(0);
      expect(client.recording.specViolations()).toEqual([]);
    }, 120_000);

    it('a task on a replica killed with SIGKILL becomes failed, saying so, on the replicas left — never working forever', async () => {
      const victim = replicas[2] as HostReplica;
      const survivor = replicas[0] as HostReplica;
      const creator = await tasksClient(victim.url);
      const reader = await tasksClient(survivor.url);
      const taskId = await writeThroughConsole(creator, 'orphan.txt');
      await pendingApprovalOf('orphan.txt');
      victim.child.kill('SIGKILL');
      await expect.poll(() => running(victim)).toBe(false);
      const ended = await awaitTask(reader, taskId, { signal: AbortSignal.timeout(60_000) });
      expect(ended).toMatchObject({ status: 'failed', error: { code: -32603 } });
      expect(String((ended.error as { message: string }).message)).toMatch(/replica.*stopped/i);
      expect(readdirSync(workspace)).not.toContain('orphan.txt');
    }, 120_000);
  },
);
