/**
 * The protocol contract, whatever the tools do: every client kind of the testing kit (the official SDK v1 client,
 * and v2 in the 2025 and 2026 eras) lists the tools in memory, over stdio and over HTTP; every message both ways
 * fits the official schema of its protocol version; every tool is annotated and declares an output schema.
 * These tests hold as you replace the example tools with your own.
 */
import {
  connectTestClient,
  type TestClientKind,
  type TestTarget,
  type TestTransportKind,
  testClientKinds,
} from '@toolshed/mcp-core/testing';
import { describe, expect, it } from 'vitest';
import { createServer } from './create-server.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;
// #if http
const binTransports: readonly TestTransportKind[] = ['stdio', 'http'];
// #endif
// #if stdioOnly
const binTransports: readonly TestTransportKind[] = ['stdio'];
// #endif

/** A tool as tools/list gives it: the fields the contract checks. */
interface ListedTool {
  name: string;
  title?: string;
  annotations?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

async function expectContract(target: TestTarget, client: TestClientKind, transport: TestTransportKind) {
  const connection = await connectTestClient(target, { client, transport });
  try {
    const tools = (await connection.listTools()) as ListedTool[];
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      expect(tool.title, `${tool.name} has a title`).toEqual(expect.any(String));
      expect(tool.annotations, `${tool.name} says what it does to the world`).toMatchObject({
        readOnlyHint: expect.any(Boolean),
        destructiveHint: expect.any(Boolean),
        idempotentHint: expect.any(Boolean),
        openWorldHint: expect.any(Boolean),
      });
      expect(tool.outputSchema, `${tool.name} declares its output`).toMatchObject({ type: 'object' });
    }
    expect(connection.protocolProblems()).toEqual([]);
  } finally {
    await connection.close();
  }
}

describe('the protocol contract', () => {
  it.each(testClientKinds)('%s client in memory', async (client) => {
    const server = createServer();
    try {
      await expectContract({ server }, client, 'memory');
    } finally {
      await server.close();
    }
  });

  it.each(testClientKinds.flatMap((client) => binTransports.map((transport) => [client, transport] as const)))(
    '%s client over %s to the bin',
    (client, transport) => expectContract({ bin: [bin] }, client, transport),
  );
});
