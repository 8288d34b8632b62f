import { toolJsonSchemaModule } from '@toolshed/mcp-core/testing';
import { afterAll, expect, it } from 'vitest';
import { createSampleDatabase } from './__fixtures__/sample-database.ts';
import { createSqlServer } from './create-sql-server.ts';

const sample = createSampleDatabase();
// Serves list_tables, describe_table, query, explain_query and export_query: every tool with a generated schema.
const server = createSqlServer({ databases: sample.path, exportDirectory: sample.directory });

afterAll(async () => {
  await server.close();
  sample.remove();
});

it('keeps tool-json-schemas.ts equal to what the tool schemas derive (vitest -u rewrites it)', async () => {
  await expect(toolJsonSchemaModule(server)).toMatchFileSnapshot('./tool-json-schemas.ts');
});
