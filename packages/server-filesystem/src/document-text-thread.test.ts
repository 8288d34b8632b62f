import { describe, expect, it } from 'vitest';
import { makePdf } from './__fixtures__/document-files.ts';
import { DocumentTextError, extractDocumentText } from './document-text-thread.ts';

const endlessWorker = new URL('./__fixtures__/endless-document-worker.ts', import.meta.url);

function request(bytes: Uint8Array = new Uint8Array(makePdf([['one page']]))) {
  return { format: 'pdf' as const, bytes, first: 1, maxParts: 10, maxCharacters: 10_000 };
}

describe('extractDocumentText', () => {
  it('extracts in a worker and moves the bytes to it', async () => {
    const bytes = new Uint8Array(makePdf([['one page']]));
    const text = await extractDocumentText(request(bytes), { timeoutMs: 60_000 });
    expect(text).toEqual({ total: 1, parts: [{ number: 1, text: 'one page' }] });
    expect(bytes.byteLength).toBe(0);
  });

  it('ends a worker that never finishes at the time limit, with an error that says so', async () => {
    const failure = extractDocumentText(request(), { timeoutMs: 200, workerUrl: endlessWorker });
    await expect(failure).rejects.toBeInstanceOf(DocumentTextError);
    await expect(failure).rejects.toThrow(/took longer than 200 ms and was stopped/);
  });

  it('ends a worker that never finishes when the call is cancelled', async () => {
    const controller = new AbortController();
    const failure = extractDocumentText(request(), {
      timeoutMs: 3_600_000,
      signal: controller.signal,
      workerUrl: endlessWorker,
    });
    setTimeout(() => controller.abort(new Error('cancelled by the client')), 100);
    await expect(failure).rejects.toThrow('cancelled by the client');
  });
});
