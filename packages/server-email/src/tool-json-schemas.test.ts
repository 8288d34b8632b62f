import { tmpdir } from 'node:os';
import { toolJsonSchemaModule } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { createEmailServer } from './create-email-server.ts';

it('keeps tool-json-schemas.ts equal to what the tool schemas derive (vitest -u rewrites it)', async () => {
  // Sending tools are always there; reading, saving and mailbox changes need IMAP, a save
  // directory and the switch. Nothing connects or writes: the server is only built.
  const server = createEmailServer({
    imap: { host: '127.0.0.1', user: 'reader@example.com', password: 'unused' },
    saveDirectory: tmpdir(),
    allowMailboxChanges: true,
  });
  try {
    await expect(toolJsonSchemaModule(server)).toMatchFileSnapshot('./tool-json-schemas.ts');
  } finally {
    await server.close();
  }
});
