import { describe, expect, it } from 'vitest';
import { LocalError } from '../errors/local-error.ts';
import {
  audioContent,
  embeddedResourceContent,
  imageContent,
  resourceLinkContent,
  textContent,
} from './content-blocks.ts';
import { isToolResult, structuredResult, toolError, toolResult } from './tool-result.ts';

describe('content helpers', () => {
  it('build every content type', () => {
    const bytes = new Uint8Array([1, 2, 3, 250]);
    expect(textContent('hi')).toEqual({ type: 'text', text: 'hi' });
    expect(imageContent(bytes, 'image/png')).toEqual({ type: 'image', data: 'AQID+g==', mimeType: 'image/png' });
    expect(audioContent('AQID', 'audio/wav', { meta: { seconds: 1 } })).toEqual({
      type: 'audio',
      data: 'AQID',
      mimeType: 'audio/wav',
      _meta: { seconds: 1 },
    });
    expect(resourceLinkContent({ uri: 'file:///a.txt', name: 'a.txt', size: 3 })).toEqual({
      type: 'resource_link',
      uri: 'file:///a.txt',
      name: 'a.txt',
      size: 3,
    });
    expect(embeddedResourceContent({ uri: 'mem://t', mimeType: 'text/plain', text: 'x' })).toEqual({
      type: 'resource',
      resource: { uri: 'mem://t', mimeType: 'text/plain', text: 'x' },
    });
    expect(embeddedResourceContent({ uri: 'mem://b', blob: bytes })).toEqual({
      type: 'resource',
      resource: { uri: 'mem://b', blob: 'AQID+g==' },
    });
  });

  it('encode a view into a larger buffer by its own bytes only', () => {
    const whole = Buffer.from([9, 9, 1, 2, 3, 9]);
    expect(imageContent(whole.subarray(2, 5), 'image/gif').data).toBe('AQID');
  });

  it('check annotations', () => {
    expect(
      textContent('x', { annotations: { audience: ['assistant'], priority: 0, lastModified: '2025-01-02T03:04:05Z' } }),
    ).toEqual({
      type: 'text',
      text: 'x',
      annotations: { audience: ['assistant'], priority: 0, lastModified: '2025-01-02T03:04:05.000Z' },
    });
    expect(() => textContent('x', { annotations: { priority: 1.5 } })).toThrow(/between 0 and 1/);
    expect(() => textContent('x', { annotations: { priority: Number.NaN } })).toThrow(/between 0 and 1/);
    expect(() => textContent('x', { annotations: { audience: ['robot' as 'user'] } })).toThrow(/"user" or "assistant"/);
    expect(() => textContent('x', { annotations: { lastModified: 'yesterday' } })).toThrow(LocalError);
    expect(() => imageContent('AA', 'png')).toThrow(/MIME type/);
  });
});

describe('result helpers', () => {
  it('build results and mark them as finished results', () => {
    expect(toolResult('done')).toEqual({ content: [{ type: 'text', text: 'done' }] });
    expect(structuredResult({ n: 1 }, { content: [textContent('one')] })).toEqual({
      content: [
        { type: 'text', text: '{"n":1}' },
        { type: 'text', text: 'one' },
      ],
      structuredContent: { n: 1 },
    });
    expect(structuredResult({ n: 1 }, { text: '{ "n": 1 }' }).content).toEqual([{ type: 'text', text: '{ "n": 1 }' }]);
    expect(toolError('nope')).toEqual({ content: [{ type: 'text', text: 'nope' }], isError: true });
    expect(isToolResult(toolError('x'))).toBe(true);
    expect(isToolResult({ content: [] })).toBe(false);
    expect(JSON.stringify(toolResult('x'))).toBe('{"content":[{"type":"text","text":"x"}]}');
  });

  it('mirror structured content as its JSON text when no text is given, before any extra block', () => {
    const data = { name: 'Ada', tags: ['a', null], nested: { n: 1.5 } };
    const result = structuredResult(data, { content: [textContent('A note for the model.')] });
    expect(result.content[0]).toEqual({ type: 'text', text: JSON.stringify(data) });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
  });
});
