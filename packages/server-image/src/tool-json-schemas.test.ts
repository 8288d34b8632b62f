import { toolJsonSchemaModule } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { createImageServer } from './create-image-server.ts';

it('keeps tool-json-schemas.ts equal to what the tool schemas derive (vitest -u rewrites it)', async () => {
  await expect(toolJsonSchemaModule(createImageServer())).toMatchFileSnapshot('./tool-json-schemas.ts');
});
