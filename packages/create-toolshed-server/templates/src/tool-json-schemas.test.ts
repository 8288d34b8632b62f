import { toolJsonSchemaModule } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { createServer } from './create-server.ts';

// After changing a tool's schema, run the tests with -u: this rewrites tool-json-schemas.ts.
it('keeps tool-json-schemas.ts equal to what the tool schemas derive (vitest -u rewrites it)', async () => {
  const server = createServer();
  try {
    await expect(toolJsonSchemaModule(server)).toMatchFileSnapshot('./tool-json-schemas.ts');
  } finally {
    await server.close();
  }
});
