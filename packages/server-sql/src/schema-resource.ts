import { defineResource, type Resource } from '@toolshed/mcp-core';
import { runOnDatabase, type SqlServerContext } from './sql-server-context.ts';

/** `ENGINE://NAME/schema` (`sqlite://shop/schema`): every CREATE statement of one database, as SQL text. */
export function createSchemaResource(context: SqlServerContext, database: string): Resource {
  const engine = context.databases.get(database)?.engine ?? 'sqlite';
  return defineResource({
    uri: `${engine}://${database}/schema`,
    name: `${database}-schema`,
    title: `Schema of ${database}`,
    description: `The CREATE statements of every table, view, index and trigger in the "${database}" database.`,
    mimeType: 'application/sql',
    async read(call) {
      const json = await runOnDatabase(context, { kind: 'schema_text', database }, call);
      return (JSON.parse(json) as { text: string }).text;
    },
  });
}
