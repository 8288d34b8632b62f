import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serviceGate } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateStore } from './open-state-store.ts';
import type { StateStore } from './state-store.ts';
import { type PostgresStateServer, postgresStateService, startPostgresStateServer } from './testing.ts';

/** Opens a second store on the same place: another replica. */
type Opener = () => Promise<StateStore>;

const request = (retryKey?: string) => ({
  caller: 'test-client/1.0',
  server: 'mail',
  tool: 'mail_send_email',
  upstreamTool: 'send_email',
  arguments: { to: 'a@example.com' },
  argumentsDigest: 'digest-1',
  reason: 'It may change or delete things.',
  expiresAt: Date.now() + 60_000,
  ...(retryKey === undefined ? {} : { retryKey }),
});

function contract(engine: string, setUp: () => Promise<{ open: Opener; tearDown(): Promise<void> }>) {
  describe(`${engine}: the state store contract`, () => {
    let open: Opener;
    let tearDown: () => Promise<void>;
    let one: StateStore;
    let two: StateStore;
    beforeAll(async () => {
      ({ open, tearDown } = await setUp());
      one = await open();
      two = await open();
    });
    afterAll(async () => {
      await one?.close();
      await two?.close();
      await tearDown?.();
    });

    it('is one store seen by two replicas, each with its own id', async () => {
      expect(one.engine).toBe(engine);
      expect(one.replica).not.toBe(two.replica);
      expect(await one.health()).toEqual({ ok: true });
    });

    it('writes an audit row before a call and completes it after, readable from any replica', async () => {
      const id = `call-${engine}-1`;
      await one.audit.begin({
        id,
        time: new Date().toISOString(),
        caller: 'c',
        server: 'weather',
        tool: 'weather_get_forecast',
        upstream_tool: 'get_forecast',
        arguments_sha256: 'x',
        approval: 'not_required',
      });
      let page = await two.audit.query({ server: 'weather', limit: 10 });
      expect(page.records.find((record) => record.id === id)?.outcome).toBe('started');
      await one.audit.complete(id, { approval: 'not_required', outcome: 'ok', duration_ms: 12 });
      page = await two.audit.query({ tool: 'FORECAST', limit: 10 });
      expect(page.records.find((record) => record.id === id)).toMatchObject({ outcome: 'ok', duration_ms: 12 });
      expect(page.servers).toContain('weather');
    });

    it('batches the rows of calls that start together and keeps every one', async () => {
      const ids = Array.from({ length: 200 }, (_, index) => `batch-${engine}-${index}`);
      await Promise.all(
        ids.map((id) =>
          one.audit.begin({
            id,
            time: new Date().toISOString(),
            caller: 'c',
            server: 'batch',
            tool: 't',
            upstream_tool: 't',
            arguments_sha256: 'x',
            approval: 'not_required',
          }),
        ),
      );
      await Promise.all(
        ids.map((id) => one.audit.complete(id, { approval: 'not_required', outcome: 'ok', duration_ms: 1 })),
      );
      const page = await two.audit.query({ server: 'batch', outcome: 'ok', limit: 1 });
      expect(page.matching).toBe(200);
    });

    it('takes a decision once when two replicas decide at the same moment', async () => {
      const pending = await one.approvals.create(request(), Date.now());
      expect((await two.approvals.pending(Date.now())).map((approval) => approval.id)).toContain(pending.id);
      const heard: string[] = [];
      const stop = one.approvals.onChange((id) => heard.push(id));
      const decision = { tool: pending.tool, argumentsDigest: pending.argumentsDigest, approve: true };
      const results = await Promise.all([
        one.approvals.decide(pending.id, { ...decision, by: 'ana' }, Date.now()),
        two.approvals.decide(pending.id, { ...decision, by: 'ben' }, Date.now()),
      ]);
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(results.find((result) => !result.ok)).toEqual({ ok: false, refusal: 'already_decided' });
      await expect.poll(() => heard.includes(pending.id)).toBe(true);
      stop();
      expect((await one.approvals.get(pending.id))?.decision).toBe('approved');
      expect(
        await Promise.all([one.approvals.use(pending.id, Date.now()), two.approvals.use(pending.id, Date.now())]),
      ).toEqual(expect.arrayContaining([true, false]));
    });

    it('refuses a decision that names other arguments, or comes too late', async () => {
      const pending = await one.approvals.create(request(), Date.now());
      const base = { tool: pending.tool, approve: true, by: 'ana' };
      expect(await two.approvals.decide(pending.id, { ...base, argumentsDigest: 'other' }, Date.now())).toEqual({
        ok: false,
        refusal: 'mismatch',
      });
      expect(
        await two.approvals.decide(pending.id, { ...base, argumentsDigest: 'digest-1' }, pending.expiresAt + 1),
      ).toEqual({ ok: false, refusal: 'expired' });
      expect(await two.approvals.decide('nope', { ...base, argumentsDigest: 'digest-1' }, Date.now())).toEqual({
        ok: false,
        refusal: 'unknown',
      });
      expect(await one.approvals.settle(pending.id, 'cancelled', Date.now())).toBe('cancelled');
    });

    it('finds a waiting or approved request again for the same retried call', async () => {
      const key = `retry-${engine}`;
      const pending = await one.approvals.create(request(key), Date.now());
      expect((await two.approvals.findForRetry(key, Date.now()))?.id).toBe(pending.id);
      await two.approvals.decide(
        pending.id,
        { tool: pending.tool, argumentsDigest: pending.argumentsDigest, approve: true, by: 'ana' },
        Date.now(),
      );
      expect((await one.approvals.findForRetry(key, Date.now()))?.decision).toBe('approved');
      expect(await one.approvals.use(pending.id, Date.now())).toBe(true);
      expect(await two.approvals.findForRetry(key, Date.now())).toBeUndefined();
    });

    it('counts a rate budget exactly across replicas', async () => {
      const windows = [{ limit: 30, windowMs: 60_000 }];
      const now = Date.now();
      const results = await Promise.all(
        Array.from({ length: 90 }, (_, index) =>
          (index % 2 === 0 ? one : two).rates.take(`rate-${engine}`, windows, now),
        ),
      );
      expect(results.filter((result) => result.allowed)).toHaveLength(30);
      const refused = await one.rates.check(`rate-${engine}`, windows, now + 1000);
      expect(refused).toMatchObject({ allowed: false, retryAfterMs: 59_000 });
      expect(await two.rates.take(`rate-${engine}`, windows, now + 60_000)).toEqual({ allowed: true });
    });

    it('logs a revoked token out on every replica', async () => {
      await one.logins.addToken({
        id: `tok-${engine}`,
        user: 'ana',
        label: 'laptop',
        sha256: `sha-${engine}`,
        createdAt: new Date().toISOString(),
      });
      expect((await two.logins.findToken(`sha-${engine}`, Date.now()))?.user).toBe('ana');
      await two.logins.openSession(
        { id: `sess-${engine}`, user: 'ana', tokenId: `tok-${engine}`, csrf: 'c' },
        Date.now(),
      );
      expect((await one.logins.findSession(`sess-${engine}`, 60_000, Date.now()))?.user).toBe('ana');
      expect(await one.logins.findSession(`sess-${engine}`, 60_000, Date.now() + 120_000)).toBeUndefined();
      await two.logins.openSession(
        { id: `sess2-${engine}`, user: 'ana', tokenId: `tok-${engine}`, csrf: 'c' },
        Date.now(),
      );
      expect(await one.logins.revokeToken(`tok-${engine}`)).toBe(true);
      expect(await two.logins.findSession(`sess2-${engine}`, 60_000, Date.now())).toBeUndefined();
      expect(await two.logins.findToken(`sha-${engine}`, Date.now())).toBeUndefined();
      expect((await two.logins.tokens()).map((token) => token.id)).not.toContain(`tok-${engine}`);
    });

    it('claims an idempotency key once when two replicas claim it at once', async () => {
      const expires = Date.now() + 60_000;
      const claims = await Promise.all([
        one.idempotency.claim('email', `key-${engine}`, 'f1', expires, Date.now()),
        two.idempotency.claim('email', `key-${engine}`, 'f1', expires, Date.now()),
      ]);
      expect(claims.filter((claim) => claim.kind === 'claimed')).toHaveLength(1);
      await one.idempotency.settle('email', `key-${engine}`, 'uncertain', { messageId: 'm' });
      expect(await two.idempotency.recall('email', `key-${engine}`, Date.now())).toMatchObject({
        state: 'uncertain',
        outcome: { messageId: 'm' },
      });
      expect((await two.idempotency.claim('email', `key-${engine}`, 'f1', expires, Date.now())).kind).toBe('held');
      await one.idempotency.settle('email', `key-${engine}`, 'failed', undefined);
      expect((await two.idempotency.claim('email', `key-${engine}`, 'f1', expires, Date.now())).kind).toBe('claimed');
    });

    it('spends a nonce once across replicas', async () => {
      const spent = await Promise.all([
        one.nonces.spend(`n-${engine}`, Date.now() + 1000, Date.now()),
        two.nonces.spend(`n-${engine}`, Date.now() + 1000, Date.now()),
      ]);
      expect(spent.sort()).toEqual([false, true]);
    });

    it('ends what a closed replica left: started calls interrupted, waits interrupted, sends uncertain', async () => {
      const three = await open();
      await three.audit.begin({
        id: `left-${engine}`,
        time: new Date().toISOString(),
        caller: 'c',
        server: 'left',
        tool: 't',
        upstream_tool: 't',
        arguments_sha256: 'x',
        approval: 'not_required',
      });
      const waiting = await three.approvals.create(request(), Date.now());
      await three.idempotency.claim('email', `left-${engine}`, 'f', Date.now() + 60_000, Date.now());
      await three.parkedCalls.hold(`parked-${engine}`, Date.now() + 60_000, 'http://10.0.0.13:3000/mcp');
      expect(await one.parkedCalls.holder(`parked-${engine}`, Date.now())).toEqual({
        replica: three.replica,
        alive: true,
        endpoint: 'http://10.0.0.13:3000/mcp',
      });
      await three.close();
      expect((await one.audit.query({ server: 'left', limit: 1 })).records[0]?.outcome).toBe('interrupted');
      expect((await one.approvals.get(waiting.id))?.decision).toBe('interrupted');
      expect((await one.idempotency.recall('email', `left-${engine}`, Date.now()))?.state).toBe('uncertain');
      expect(await one.parkedCalls.holder(`parked-${engine}`, Date.now())).toBeUndefined();
    });
  });
}

contract('sqlite', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-state-'));
  return {
    open: () => openStateStore({ location: join(directory, 'state.db') }),
    tearDown: async () => rmSync(directory, { recursive: true, force: true }),
  };
});

describe.runIf(serviceGate(postgresStateService, it))('with PostgreSQL', () => {
  contract('postgres', async () => {
    const server: PostgresStateServer = await startPostgresStateServer();
    process.env.PGPASSWORD = server.env.PGPASSWORD;
    return { open: () => openStateStore({ location: server.url }), tearDown: () => server.stop() };
  });
});
