import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolJsonSchemaModule } from '@toolshed/mcp-core/testing';
import { afterAll, expect, it } from 'vitest';
import { createFilesystemServer } from './create-filesystem-server.ts';

const directory = mkdtempSync(join(tmpdir(), 'toolshed-fs-schemas-'));

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

it('keeps tool-json-schemas.ts equal to what the tool schemas derive (vitest -u rewrites it)', async () => {
  // A writable directory lists every tool, the write tools included.
  const server = createFilesystemServer({ directories: [directory] });
  await expect(toolJsonSchemaModule(server)).toMatchFileSnapshot('./tool-json-schemas.ts');
});
