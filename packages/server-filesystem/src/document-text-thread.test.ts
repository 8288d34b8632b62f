import { describe, expect, it } from 'vitest';
import { makePdf } from './__fixtures__/document-files.ts';
import { createDocumentThreads, DocumentTextError } from './document-text-thread.ts';

const endlessWorker = new URL('./__fixtures__/endless-document-worker.ts', import.meta.url);

function request(bytes: Uint8Array = new Uint8Array(makePdf([['one page']]))) {
  return { format: 'pdf' as const, bytes, first: 1, maxParts: 10, maxCharacters: 10_000 };
}

describe('createDocumentThreads', () => {
  it('extracts in a worker, moves the bytes to it, and reads the next document in the same warm worker', async () => {
    const threads = createDocumentThreads();
    try {
      const bytes = new Uint8Array(makePdf([['one page']]));
      expect(await threads.extract(request(bytes), { timeoutMs: 60_000 })).toEqual({
        total: 1,
        parts: [{ number: 1, text: 'one page' }],
      });
      expect(bytes.byteLength).toBe(0);
      const second = await threads.extract(request(new Uint8Array(makePdf([['a'], ['b']]))), { timeoutMs: 60_000 });
      expect(second.parts.map((part) => part.text)).toEqual(['a', 'b']);
      // A range error leaves the worker sound; it answers the next document too.
      const beyond = threads.extract({ ...request(), first: 5 }, { timeoutMs: 60_000 });
      await expect(beyond).rejects.toMatchObject({ range: true, message: 'first is 5, but it has 1 page' });
      expect((await threads.extract(request(), { timeoutMs: 60_000 })).total).toBe(1);
    } finally {
      await threads.close();
    }
  });

  it('ends a worker that never finishes at the time limit, with an error that says so', async () => {
    const threads = createDocumentThreads({ workerUrl: endlessWorker });
    const failure = threads.extract(request(), { timeoutMs: 200 });
    await expect(failure).rejects.toBeInstanceOf(DocumentTextError);
    await expect(failure).rejects.toThrow(/took longer than 200 ms and was stopped/);
    await threads.close();
  });

  it('ends a worker that never finishes when the call is cancelled', async () => {
    const threads = createDocumentThreads({ workerUrl: endlessWorker });
    const controller = new AbortController();
    const failure = threads.extract(request(), { timeoutMs: 3_600_000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by the client')), 100);
    await expect(failure).rejects.toThrow('cancelled by the client');
    await threads.close();
  });
});
