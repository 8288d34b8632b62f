import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { serveHttp } from '@toolshed/mcp-core';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { startHostHarness } from './__fixtures__/host-harness.ts';
import { argumentsDigest } from './compose/audit-log.ts';

describe('the audit log under 64 concurrent HTTP clients', () => {
  it('keeps every call’s line exactly once across the rotated files, none over the size limit', async () => {
    const maxBytes = 1024;
    const h = await startHostHarness((directory) => {
      const db = new Database(join(directory, 'shop.db'));
      db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY)');
      db.close();
      // Each line is about 330 bytes: three to a file, so 64 calls need about 22 files; 40 are kept.
      return {
        toolshed: { audit: { maxBytes, files: 40 } },
        mcpServers: { '@toolshed/server-sql': { databases: join(directory, 'shop.db') } },
      };
    });
    const calls = Array.from({ length: 64 }, (_, index) => ({ sql: `SELECT ${index} AS call_number` }));
    const endpoint = await serveHttp(h.host.server, { port: 0 });
    try {
      // 64 clients, each on its own HTTP connection, all calling at once.
      const clients = await Promise.all(
        calls.map(async () => {
          const client = new Client({ name: 'audit-load', version: '1' });
          await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
          return client;
        }),
      );
      const results = await Promise.all(
        clients.map((client, index) => client.callTool({ name: 'sql_query', arguments: calls[index] })),
      );
      expect(results.filter((result) => result.isError === true)).toEqual([]);
      await Promise.all(clients.map((client) => client.close()));
    } finally {
      await endpoint.close();
      await h.host.close();
    }
    const files = readdirSync(h.directory).filter((name) => name.startsWith('audit.jsonl'));
    const digests = files.flatMap((name) => {
      const path = join(h.directory, name);
      expect(statSync(path).size).toBeLessThanOrEqual(maxBytes);
      return readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { arguments_sha256: string }).arguments_sha256);
    });
    expect(files.length).toBeGreaterThan(10);
    expect(digests.sort()).toEqual(calls.map((args) => argumentsDigest(args)).sort());
    await h.close();
  });
});
