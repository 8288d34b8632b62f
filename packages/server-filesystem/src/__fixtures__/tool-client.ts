import { connectTestClient, type TestClient, type TestClientKind } from '@toolshed/mcp-core/testing';
import { afterEach, beforeEach, expect } from 'vitest';
import { createFilesystemServer, type FilesystemServerOptions } from '../index.ts';
import { createSandbox, type Sandbox } from './sandbox.ts';

/** A fresh sandbox, a server on it and a client of one kind, for each test of a `describe.each(testClientKinds)`. */
export interface ToolClientSetup {
  readonly sandbox: Sandbox;
  readonly client: TestClient;
  /** The first text block of a tool's answer. */
  text(result: { content: unknown[] }): string;
}

export function useToolClient(
  kind: TestClientKind,
  options: (sandbox: Sandbox) => Partial<FilesystemServerOptions> = () => ({}),
): ToolClientSetup {
  const state: { sandbox?: Sandbox; client?: TestClient; close?: () => Promise<void> } = {};
  beforeEach(async () => {
    const sandbox = createSandbox();
    const server = createFilesystemServer({ directories: [sandbox.allowed], ...options(sandbox) });
    const client = await connectTestClient({ server }, { client: kind, transport: 'memory' });
    Object.assign(state, {
      sandbox,
      client,
      close: async () => {
        expect(client.protocolProblems()).toEqual([]);
        await client.close();
        await server.close();
        sandbox.remove();
      },
    });
  });
  afterEach(async () => {
    await state.close?.();
  });
  return {
    get sandbox() {
      return state.sandbox as Sandbox;
    },
    get client() {
      return state.client as TestClient;
    },
    text: (result) => (result.content[0] as { text?: string } | undefined)?.text ?? '',
  };
}
