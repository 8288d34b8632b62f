import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStateStore, type StateStore } from '@toolshed/state';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApprovalBroker, type ApprovalBrokerOptions, type ApprovalRequest } from './approval-broker.ts';

const request: ApprovalRequest = {
  caller: 'client/1',
  server: 'files',
  tool: 'files_write_file',
  upstreamTool: 'write_file',
  arguments: { path: '/tmp/a', content: 'x' },
  argumentsDigest: 'd1',
  reason: 'It may change or delete things.',
};

describe('ApprovalBroker', () => {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-broker-'));
  let store: StateStore;
  const brokers: ApprovalBroker[] = [];
  const brokerOf = (options: Omit<ApprovalBrokerOptions, 'store'> = {}) => {
    const broker = new ApprovalBroker({ ...options, store: () => store });
    broker.connect();
    brokers.push(broker);
    return broker;
  };
  beforeAll(async () => {
    store = await openStateStore({ location: join(directory, 'state.db') });
  });
  afterAll(async () => {
    for (const broker of brokers) broker.close();
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('settles a request with the human’s decision, once', async () => {
    const broker = brokerOf();
    const { approval, verdict } = await broker.request(request, new AbortController().signal);
    expect((await broker.pending()).map((entry) => entry.id)).toEqual([approval.id]);
    const decision = { tool: 'files_write_file', argumentsDigest: 'd1', approve: true, by: 'alice' };
    expect(await broker.decide(approval.id, decision)).toEqual({ ok: true });
    await expect(verdict).resolves.toEqual({ decision: 'approved', by: 'alice' });
    expect(await broker.pending()).toEqual([]);
    expect(await broker.decide(approval.id, decision)).toEqual({ ok: false, refusal: 'already_decided' });
    expect(await broker.decide('never-issued', decision)).toEqual({ ok: false, refusal: 'unknown' });
  });

  it('refuses a decision naming another tool or other arguments, and keeps waiting', async () => {
    const broker = brokerOf();
    const { approval, verdict } = await broker.request(request, new AbortController().signal);
    const base = { tool: 'files_write_file', argumentsDigest: 'd1', approve: true, by: 'alice' };
    expect(await broker.decide(approval.id, { ...base, argumentsDigest: 'd2' })).toEqual({
      ok: false,
      refusal: 'mismatch',
    });
    expect(await broker.decide(approval.id, { ...base, tool: 'files_delete' })).toEqual({
      ok: false,
      refusal: 'mismatch',
    });
    expect(await broker.pending()).toHaveLength(1);
    expect(await broker.decide(approval.id, { ...base, approve: false })).toEqual({ ok: true });
    await expect(verdict).resolves.toEqual({ decision: 'denied', by: 'alice' });
  });

  it('expires a request nobody decides, and refuses a decision past the expiry', async () => {
    let now = 1_000_000;
    const waiting = brokerOf({ timeLimitMs: 20, now: () => now });
    const first = await waiting.request(request, new AbortController().signal);
    now += 20;
    await expect(first.verdict).resolves.toEqual({ decision: 'expired' });
    expect(await waiting.pending()).toEqual([]);
    const decision = { tool: 'files_write_file', argumentsDigest: 'd1', approve: true, by: 'alice' };
    expect(await waiting.decide(first.approval.id, decision)).toEqual({ ok: false, refusal: 'expired' });

    const clocked = brokerOf({ timeLimitMs: 60_000, now: () => now });
    const second = await clocked.request(request, new AbortController().signal);
    now += 60_000;
    expect(await clocked.decide(second.approval.id, decision)).toEqual({ ok: false, refusal: 'expired' });
    await expect(second.verdict).resolves.toEqual({ decision: 'expired' });
  });

  it('cancels when the caller goes, and on close, telling listeners each time', async () => {
    const broker = brokerOf();
    let changes = 0;
    broker.onChange(() => {
      changes += 1;
    });
    const controller = new AbortController();
    const cancelled = await broker.request(request, controller.signal);
    controller.abort();
    await expect(cancelled.verdict).resolves.toEqual({ decision: 'cancelled' });
    const closed = await broker.request(request, new AbortController().signal);
    broker.close();
    await expect(closed.verdict).resolves.toEqual({ decision: 'cancelled' });
    expect(changes).toBeGreaterThanOrEqual(3);
  });

  it('keeps a request for the retry of a caller that answers by retrying, and runs an approval once', async () => {
    const broker = brokerOf();
    const keyed = { ...request, retryKey: 'caller+tool+arguments' };
    const controller = new AbortController();
    const first = await broker.request(keyed, controller.signal, { keepOnAbort: true });
    controller.abort();
    await expect(first.verdict).resolves.toEqual({ decision: 'cancelled' });
    const retry = await broker.request(keyed, new AbortController().signal, { keepOnAbort: true });
    expect(retry.approval.id).toBe(first.approval.id);
    await broker.decide(first.approval.id, { tool: keyed.tool, argumentsDigest: 'd1', approve: true, by: 'alice' });
    await expect(retry.verdict).resolves.toEqual({ decision: 'approved', by: 'alice' });
    const again = await broker.request(keyed, new AbortController().signal, { keepOnAbort: true });
    expect(again.approval.id).not.toBe(first.approval.id);
  });

  it('says where the console is only while one is attached', () => {
    const broker = brokerOf();
    expect(broker.consoleUrl).toBeUndefined();
    const detach = broker.attach('http://127.0.0.1:1/');
    expect(broker.consoleUrl).toBe('http://127.0.0.1:1/');
    detach();
    expect(broker.consoleUrl).toBeUndefined();
  });
});
