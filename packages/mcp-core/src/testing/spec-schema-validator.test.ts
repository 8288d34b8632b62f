import { describe, expect, it } from 'vitest';
import { createSpecValidator, specSchemaVersions } from './spec-schema-validator.ts';

describe('the official-schema validator', () => {
  it.each(specSchemaVersions)('accepts a valid tools/call result and rejects broken ones (%s)', (version) => {
    const validator = createSpecValidator(version);
    // The 2026 revision marks every result with its kind.
    const kind = version >= '2026' ? { resultType: 'complete' } : {};
    const good = { jsonrpc: '2.0', id: 1, result: { ...kind, content: [{ type: 'text', text: 'hi' }] } };
    expect(validator.validateServerMessage(good, 'tools/call')).toEqual([]);
    const noContent = { jsonrpc: '2.0', id: 1, result: { ...kind, isError: 'yes' } };
    expect(validator.validateServerMessage(noContent, 'tools/call').length).toBeGreaterThan(0);
    const badBlock = { jsonrpc: '2.0', id: 1, result: { ...kind, content: [{ type: 'image', data: 'x' }] } };
    expect(validator.validateServerMessage(badBlock, 'tools/call').length).toBeGreaterThan(0);
  });

  it('checks notifications against their own definition', () => {
    const validator = createSpecValidator('2025-11-25');
    const progress = { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 2 } };
    expect(validator.validateServerMessage(progress)).toEqual([]);
    const noToken = { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 2 } };
    expect(validator.validateServerMessage(noToken).length).toBeGreaterThan(0);
    const unknown = { jsonrpc: '2.0', method: 'notifications/whatever' };
    expect(validator.validateServerMessage(unknown)).toEqual([
      'notifications/whatever: not a method this validator knows',
    ]);
  });

  it('checks error envelopes, allowing JSON-RPC id null for unreadable requests', () => {
    const validator = createSpecValidator('2025-06-18');
    expect(
      validator.validateServerMessage({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } }),
    ).toEqual([]);
    expect(
      validator.validateServerMessage({ jsonrpc: '2.0', id: 3, error: { code: 'bad', message: 'x' } }).length,
    ).toBeGreaterThan(0);
  });

  it('has no schema for revisions that were not copied in', () => {
    expect(() => createSpecValidator('2024-11-05')).toThrow(/No official schema/);
  });
});
