import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernHttpTransport,
} from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type HttpServerHandle, serveHttp } from '@toolshed/mcp-core';
import { startTokenIssuer, type TokenIssuer } from '@toolshed/mcp-core/testing';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostConfig } from './config/load-config.ts';
import { createHost, type Host } from './create-host.ts';

/**
 * The host on 127.0.0.1 over HTTP with JWT auth, mounting the SQL server in
 * process with a vetted tool whose `customer_id` comes from the caller's
 * verified token, beside a foreign stdio server and a foreign HTTP server
 * that record every byte the host sends them.
 */

let directory: string;
let issuer: TokenIssuer;
let host: Host;
let endpoint: HttpServerHandle;
let foreignHttp: Server;
const foreignHttpSeen: { headers: IncomingHttpHeaders; body: string }[] = [];
let foreignStdioRecord: string;

/** A claim no foreign server may ever see, in any byte it receives. */
const marker = 'kiri-7f3e9a@example.test';

/** What both recording servers answer, by method: a legacy server with one read-only `echo` tool. */
const recorderResults: Record<string, unknown> = {
  initialize: {
    protocolVersion: '2025-06-18',
    capabilities: { tools: {} },
    serverInfo: { name: 'recorder', version: '1' },
  },
  'tools/list': {
    tools: [
      {
        name: 'echo',
        description: 'Says what it was given.',
        inputSchema: { type: 'object', properties: { note: { type: 'string' } } },
        annotations: { readOnlyHint: true },
      },
    ],
  },
};

/** The answer to one request: `echo` says what arguments it was given; anything unknown is not found. */
function recorderAnswer(message: { method?: string; params?: { arguments?: unknown } }): Record<string, unknown> {
  if (message.method === 'tools/call') {
    return { result: { content: [{ type: 'text', text: JSON.stringify(message.params?.arguments ?? {}) }] } };
  }
  const result = recorderResults[message.method ?? ''];
  return result === undefined ? { error: { code: -32601, message: 'Method not found' } } : { result };
}

/**
 * The same server over stdio, for `node -e SCRIPT RECORD RESULTS`: every
 * line it reads is appended to RECORD; it answers as recorderAnswer does.
 */
const stdioRecorder = `
const { appendFileSync } = require('node:fs');
const [record, results] = [process.argv[1], JSON.parse(process.argv[2])];
require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
  appendFileSync(record, line + '\\n');
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  const answer =
    message.method === 'tools/call'
      ? { result: { content: [{ type: 'text', text: JSON.stringify(message.params.arguments ?? {}) }] } }
      : message.method in results
        ? { result: results[message.method] }
        : { error: { code: -32601, message: 'Method not found' } };
  process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...answer }) + '\\n');
});
`;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-host-identity-'));
  const database = new Database(join(directory, 'shop.db'));
  database.exec(`
    CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    CREATE TABLE orders (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers(id),
      total REAL NOT NULL,
      placed_at TEXT NOT NULL
    );
    INSERT INTO customers VALUES (1, 'Aroha'), (2, 'Björn'), (3, '田中');
  `);
  const addOrder = database.prepare('INSERT INTO orders VALUES (?, ?, ?, ?)');
  for (let id = 1; id <= 12; id++) addOrder.run(id, (id % 3) + 1, id * 10, `2026-05-${String(id).padStart(2, '0')}`);
  database.close();

  issuer = await startTokenIssuer();

  foreignHttp = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      foreignHttpSeen.push({ headers: request.headers, body });
      if (request.method !== 'POST') return void response.writeHead(405).end();
      const message = JSON.parse(body) as { id?: unknown; method?: string };
      if (message.id === undefined) return void response.writeHead(202).end();
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...recorderAnswer(message) }));
    });
  });
  await new Promise<void>((resolve) => foreignHttp.listen(0, '127.0.0.1', resolve));
  foreignStdioRecord = join(directory, 'stdio-received.jsonl');
  writeFileSync(foreignStdioRecord, '');

  const config = {
    mcpServers: {
      shop: {
        package: '@toolshed/server-sql',
        options: {
          databases: join(directory, 'shop.db'),
          tools: {
            tools: [
              {
                name: 'orders_of_customer',
                description: 'Orders of the signed-in customer, newest first.',
                statement:
                  'SELECT id, customer_id, total, placed_at FROM orders WHERE customer_id = :customer_id ORDER BY placed_at DESC',
                parameters: [{ name: 'customer_id', type: 'integer', from: 'claim.customer_id' }],
                maxRows: 50,
              },
            ],
          },
        },
      },
      stdio: {
        command: process.execPath,
        args: ['-e', stdioRecorder, foreignStdioRecord, JSON.stringify(recorderResults)],
      },
      remote: { url: `http://127.0.0.1:${(foreignHttp.address() as AddressInfo).port}/mcp` },
    },
    toolshed: { audit: { path: join(directory, 'audit.jsonl') } },
  };
  host = createHost(parseHostConfig(JSON.stringify(config), join(directory, 'toolshed.json')), { log: () => {} });
  await host.start();
  endpoint = await serveHttp(host.server, { host: '127.0.0.1', port: 0, auth: { jwt: { issuer: issuer.issuer } } });
}, 60_000);

afterAll(async () => {
  await endpoint?.close();
  await host?.close();
  foreignHttp?.closeAllConnections();
  await new Promise((resolve) => foreignHttp?.close(resolve));
  await issuer?.close();
  rmSync(directory, { recursive: true, force: true });
});

function tokenFor(subject: string, claims: Record<string, unknown>): Promise<string> {
  return issuer.sign(endpoint.url, { ...claims, sub: subject });
}

type CallResult = {
  content: { type: string; text?: string }[];
  isError?: boolean;
  structuredContent?: { columns?: { name: string }[]; rows?: unknown[][] };
};

interface Caller {
  listTools(): Promise<{ name: string; inputSchema: { properties?: Record<string, unknown> } }[]>;
  call(name: string, args: Record<string, unknown>): Promise<CallResult>;
  close(): Promise<void>;
}

/** A caller with a bearer token, in one era: the SDK v1 client in a 2025 session, or the v2 client pinned to 2026-07-28. */
const eras: { era: string; connect(token: string): Promise<Caller> }[] = [
  {
    era: '2025 (SDK v1, session)',
    async connect(token) {
      const client = new LegacyClient({ name: 'shop-app', version: '1' });
      await client.connect(
        new LegacyHttpTransport(new URL(endpoint.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return {
        listTools: async () => (await client.listTools()).tools as never,
        call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallResult,
        close: () => client.close(),
      };
    },
  },
  {
    era: '2026 (SDK v2, stateless)',
    async connect(token) {
      const client = new ModernClient({ name: 'shop-app', version: '2' }, {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
      } as never);
      await client.connect(
        new ModernHttpTransport(new URL(endpoint.url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return {
        listTools: async () => (await client.listTools()).tools as never,
        call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallResult,
        close: () => client.close(),
      };
    },
  },
];

/** The customer of every row a result holds. */
function customersIn(result: CallResult): unknown[] {
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  const columns = result.structuredContent?.columns ?? [];
  const rows = result.structuredContent?.rows ?? [];
  expect(rows.length).toBeGreaterThan(0);
  const customer = columns.findIndex((column) => column.name === 'customer_id');
  return [...new Set(rows.map((row) => row[customer]))];
}

describe.each(eras)('a mounted server sees the caller the host verified, $era', ({ connect }) => {
  it("binds the claim-bound parameter to the caller's own token, whatever the model passes", async () => {
    const customer3 = await connect(await tokenFor('user-3', { customer_id: 3, email: marker }));
    const customer1 = await connect(await tokenFor('user-1', { customer_id: 1 }));
    try {
      const tool = (await customer3.listTools()).find((candidate) => candidate.name === 'shop_orders_of_customer');
      expect(tool?.inputSchema.properties ?? {}).not.toHaveProperty('customer_id');
      const [own, other] = await Promise.all([
        customer3.call('shop_orders_of_customer', {}),
        customer1.call('shop_orders_of_customer', {}),
      ]);
      expect(customersIn(own)).toEqual([3]);
      expect(customersIn(other)).toEqual([1]);
      // The model names another customer: the token decides, and the result is the same as without it.
      const overridden = await customer3.call('shop_orders_of_customer', { customer_id: 1 });
      expect(customersIn(overridden)).toEqual([3]);
      expect(overridden.structuredContent?.rows).toEqual(own.structuredContent?.rows);
    } finally {
      await customer3.close();
      await customer1.close();
    }
  });

  it('fails closed for a token without the claim, naming the claim and not the token', async () => {
    const token = await tokenFor('visitor', { email: marker });
    const visitor = await connect(token);
    try {
      for (const args of [{}, { customer_id: 3 }]) {
        const result = await visitor.call('shop_orders_of_customer', args);
        expect(result.isError).toBe(true);
        const text = JSON.stringify(result);
        expect(text).toMatch(/customer_id/);
        // The server did see a verified caller: what is missing is the claim, not the identity.
        expect(text).not.toMatch(/not authenticated/);
        for (const part of token.split('.')) expect(text).not.toContain(part);
      }
    } finally {
      await visitor.close();
    }
  });

  it("never hands the caller's identity to a child process or a remote server", async () => {
    const token = await tokenFor('user-3', { customer_id: 3, email: marker });
    const caller = await connect(token);
    const stdioBefore = readFileSync(foreignStdioRecord, 'utf8').length;
    const httpBefore = foreignHttpSeen.length;
    try {
      expect((await caller.call('stdio_echo', { note: 'hello' })).content[0]?.text).toBe('{"note":"hello"}');
      expect((await caller.call('remote_echo', { note: 'hello' })).content[0]?.text).toBe('{"note":"hello"}');
    } finally {
      await caller.close();
    }
    const stdioReceived = readFileSync(foreignStdioRecord, 'utf8').slice(stdioBefore);
    const httpReceived = foreignHttpSeen.slice(httpBefore);
    // Each got the call as it always has: the tool, its arguments and a progress token; nothing about the caller.
    const calls = [
      ...stdioReceived
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as unknown),
      ...httpReceived.map((seen) => JSON.parse(seen.body) as unknown),
    ].filter((message) => (message as { method?: string }).method === 'tools/call');
    expect(calls).toEqual([
      {
        jsonrpc: '2.0',
        id: expect.any(Number),
        method: 'tools/call',
        params: { name: 'echo', arguments: { note: 'hello' }, _meta: { progressToken: expect.any(Number) } },
      },
      {
        jsonrpc: '2.0',
        id: expect.any(Number),
        method: 'tools/call',
        params: { name: 'echo', arguments: { note: 'hello' }, _meta: { progressToken: expect.any(Number) } },
      },
    ]);
    expect(httpReceived.map((seen) => seen.headers.authorization)).toEqual(httpReceived.map(() => undefined));
    const everything = `${stdioReceived}${JSON.stringify(httpReceived)}`;
    for (const secret of [marker, 'user-3', ...token.split('.')]) expect(everything).not.toContain(secret);
  });
});
