/**
 * A script for the pack check's install directory: `setup` defines `server`
 * (and may import), then one tools/call goes to it over an in-memory pair
 * after initialize; `verdict` reads `answers` and exits 1 when they are wrong.
 *
 * @example
 * inMemoryCallScript(`import { createNotesServer } from 'notes-server';\nconst server = createNotesServer();`,
 *   { name: 'list_notes', arguments: {} }, `if (answers[1]?.result?.isError) process.exit(1);`)
 */
export function inMemoryCallScript(setup: string, call: Record<string, unknown>, verdict: string): string {
  return `
import { createInMemoryTransportPair } from '@toolshed/mcp-core';
${setup}
const [client, serverSide] = createInMemoryTransportPair();
await server.connect(serverSide);
const answers = [];
client.onmessage = (message) => answers.push(message);
await client.start();
await client.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
await client.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: ${JSON.stringify(call)} });
for (let waited = 0; answers.length < 2 && waited < 5000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
await server.close();
${verdict}
`;
}

/** A call through an installed package, checked by the pack check. */
export interface SmokeCheck {
  /** The package it needs; skipped when that package is not among the packed ones. */
  packageName: string;
  label: string;
  /** A module run in the install directory: exit 0 is a pass (see `inMemoryCallScript`). */
  script: string;
}
