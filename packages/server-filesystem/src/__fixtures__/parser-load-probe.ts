/**
 * Starts a filesystem server in this process, lists its tools and reads a
 * text file through it, then prints, as JSON, every module specifier of a
 * document parser this thread resolved meanwhile (none is expected).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const parsers = /^(unpdf|mammoth|read-excel-file)(\/|$)/;
const resolved: string[] = [];
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (parsers.test(specifier)) resolved.push(specifier);
    return nextResolve(specifier, context);
  },
});

const { connectTestClient } = await import('@toolshed/mcp-core/testing');
const { createFilesystemServer } = await import('../index.ts');
const directory = mkdtempSync(join(tmpdir(), 'toolshed-parser-probe-'));
try {
  writeFileSync(join(directory, 'notes.txt'), 'plain text\n');
  const server = createFilesystemServer({ directories: [directory] });
  const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
  await client.listTools();
  const read = await client.callTool('read_text_file', { path: 'notes.txt' });
  if (read.isError) throw new Error('the text read failed');
  await client.close();
  await server.close();
} finally {
  rmSync(directory, { recursive: true, force: true });
}
console.log(JSON.stringify(resolved));
