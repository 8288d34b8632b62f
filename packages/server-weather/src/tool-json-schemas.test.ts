import { toolJsonSchemaModule } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { createWeatherServer } from './create-weather-server.ts';

it('keeps tool-json-schemas.ts equal to what the tool schemas derive (vitest -u rewrites it)', async () => {
  // Every option leaves the tools and their schemas as they are, so one server registers them all.
  const server = createWeatherServer();
  try {
    await expect(toolJsonSchemaModule(server)).toMatchFileSnapshot('./tool-json-schemas.ts');
  } finally {
    await server.close();
  }
});
