import { describe, expect, it } from 'vitest';
import { ApprovalBroker, type ApprovalRequest } from './approval-broker.ts';

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
  it('settles a request with the human’s decision, once', async () => {
    const broker = new ApprovalBroker();
    const { approval, verdict } = broker.request(request, new AbortController().signal);
    expect(broker.pending().map((entry) => entry.id)).toEqual([approval.id]);
    const decision = { tool: 'files_write_file', argumentsDigest: 'd1', approve: true, by: 'alice' };
    expect(broker.decide(approval.id, decision)).toEqual({ ok: true });
    await expect(verdict).resolves.toEqual({ decision: 'approved', by: 'alice' });
    expect(broker.pending()).toEqual([]);
    expect(broker.decide(approval.id, decision)).toEqual({ ok: false, refusal: 'already_decided' });
    expect(broker.decide('never-issued', decision)).toEqual({ ok: false, refusal: 'unknown' });
  });

  it('refuses a decision naming another tool or other arguments, and keeps waiting', async () => {
    const broker = new ApprovalBroker();
    const { approval, verdict } = broker.request(request, new AbortController().signal);
    const base = { tool: 'files_write_file', argumentsDigest: 'd1', approve: true, by: 'alice' };
    expect(broker.decide(approval.id, { ...base, argumentsDigest: 'd2' })).toEqual({ ok: false, refusal: 'mismatch' });
    expect(broker.decide(approval.id, { ...base, tool: 'files_delete' })).toEqual({ ok: false, refusal: 'mismatch' });
    expect(broker.pending()).toHaveLength(1);
    expect(broker.decide(approval.id, { ...base, approve: false })).toEqual({ ok: true });
    await expect(verdict).resolves.toEqual({ decision: 'denied', by: 'alice' });
  });

  it('expires a request nobody decides, and refuses a decision past the expiry', async () => {
    let now = 1_000_000;
    const waiting = new ApprovalBroker({ timeLimitMs: 20, now: () => now });
    const first = waiting.request(request, new AbortController().signal);
    await expect(first.verdict).resolves.toEqual({ decision: 'expired' });
    expect(waiting.pending()).toEqual([]);
    const decision = { tool: 'files_write_file', argumentsDigest: 'd1', approve: true, by: 'alice' };
    expect(waiting.decide(first.approval.id, decision)).toEqual({ ok: false, refusal: 'expired' });

    const clocked = new ApprovalBroker({ timeLimitMs: 60_000, now: () => now });
    const second = clocked.request(request, new AbortController().signal);
    now += 60_000;
    const late = { tool: 'files_write_file', argumentsDigest: 'd1', approve: true, by: 'alice' };
    expect(clocked.decide(second.approval.id, late)).toEqual({ ok: false, refusal: 'expired' });
    await expect(second.verdict).resolves.toEqual({ decision: 'expired' });
  });

  it('cancels when the caller goes, and on close, telling listeners each time', async () => {
    const broker = new ApprovalBroker();
    let changes = 0;
    broker.onChange(() => {
      changes += 1;
    });
    const controller = new AbortController();
    const cancelled = broker.request(request, controller.signal);
    controller.abort();
    await expect(cancelled.verdict).resolves.toEqual({ decision: 'cancelled' });
    const closed = broker.request(request, new AbortController().signal);
    broker.close();
    await expect(closed.verdict).resolves.toEqual({ decision: 'cancelled' });
    expect(changes).toBe(4);
  });

  it('says where the console is only while one is attached', () => {
    const broker = new ApprovalBroker();
    expect(broker.consoleUrl).toBeUndefined();
    const detach = broker.attach('http://127.0.0.1:1/');
    expect(broker.consoleUrl).toBe('http://127.0.0.1:1/');
    detach();
    expect(broker.consoleUrl).toBeUndefined();
  });
});
