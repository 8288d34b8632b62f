import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from './__fixtures__/document-files.ts';

// The published bin: the bundled start-up in dist, with the document worker beside it and the parsers in
// node_modules, loaded only when a document is read. The build (pnpm build, run before the tests in CI) makes it.
const bin = new URL('../bin/toolshed-filesystem.js', import.meta.url).pathname;
const built = existsSync(new URL('../dist/toolshed-filesystem.cjs', import.meta.url));
if (!built)
  console.log(
    'read-document-bin.test.ts: skipped, the bin is not built (pnpm --filter @toolshed/server-filesystem build)',
  );

describe.skipIf(!built)('read_document through the built bin', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-document-bin-'));
    writeFileSync(join(directory, 'manual.pdf'), makePdf([['Chapter one'], ['Chapter two', 'The end']]));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('reads a PDF over stdio, the worker and pdf.js found beside the bundle', async () => {
    const client = await connectTestClient({ bin: [bin, directory] }, { client: 'v2-modern', transport: 'stdio' });
    try {
      const result = await client.callTool('read_document', { path: 'manual.pdf', first: 2 });
      expect(result.isError).toBeFalsy();
      const text = (result.content[0] as { text: string }).text;
      expect(text).toContain('--- Page 2 of 2 ---\nChapter two\nThe end\n</untrusted-document-');
      expect(result.structuredContent).toMatchObject({ format: 'pdf', total: 2, first: 2, last: 2 });
      expect(client.protocolProblems()).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);
});
