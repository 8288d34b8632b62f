import { describe, expect, it } from 'vitest';
import { classifyProbe, type ProbeOutcome, type ProbeVerdict } from './era-probe.ts';

const discover = (supportedVersions: string[]) => ({
  kind: 'result' as const,
  result: {
    resultType: 'complete',
    supportedVersions,
    capabilities: { tools: { listChanged: true } },
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'probed', version: '1' } },
  },
});

const unsupported = (supported: unknown) => ({
  kind: 'rpc-error' as const,
  code: -32022,
  message: 'Unsupported protocol version',
  data: { supported, requested: '2026-07-28' },
});

describe('classifyProbe', () => {
  it.each<[string, ProbeOutcome, Partial<ProbeVerdict>]>([
    [
      'a DiscoverResult naming our version',
      discover(['2025-11-25', '2026-07-28']),
      { kind: 'modern', version: '2026-07-28' },
    ],
    [
      'a DiscoverResult with no stateless version in common',
      discover(['2027-03-01', '2025-11-25']),
      { kind: 'legacy' },
    ],
    ['a result that is no DiscoverResult', { kind: 'result', result: {} }, { kind: 'legacy' }],
    ['-32022 naming a version we speak', unsupported(['2026-07-28']), { kind: 'retry', version: '2026-07-28' }],
    ['-32022 naming only modern versions we do not speak', unsupported(['2027-03-01']), { kind: 'error' }],
    ['-32022 naming only legacy versions', unsupported(['2025-06-18']), { kind: 'legacy' }],
    ['-32022 without a list', unsupported(undefined), { kind: 'legacy' }],
    ['method not found', { kind: 'rpc-error', code: -32601, message: 'Method not found' }, { kind: 'legacy' }],
    ['"not initialized"', { kind: 'rpc-error', code: -32600, message: 'Server not initialized' }, { kind: 'legacy' }],
    ['HTTP 404 with a page', { kind: 'http-error', status: 404, body: '<html>' }, { kind: 'legacy' }],
    ['HTTP 405', { kind: 'http-error', status: 405, body: '' }, { kind: 'legacy' }],
    ['HTTP 401', { kind: 'http-error', status: 401, body: '' }, { kind: 'error' }],
    ['HTTP 502', { kind: 'http-error', status: 502, body: 'bad gateway' }, { kind: 'error' }],
    ['silence past the time limit', { kind: 'timeout', timeLimitMs: 300 }, { kind: 'legacy' }],
    ['a child that exits on it', { kind: 'closed' }, { kind: 'error', legacyNextTime: true }],
    ['a refused connection', { kind: 'failure', error: new Error('connect ECONNREFUSED') }, { kind: 'error' }],
  ])('reads %s', (_case, outcome, verdict) => {
    expect(classifyProbe(outcome)).toMatchObject(verdict);
  });

  it('keeps what a modern server says about itself', () => {
    expect(classifyProbe(discover(['2026-07-28']))).toMatchObject({
      discover: { capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'probed', version: '1' } },
    });
  });
});
