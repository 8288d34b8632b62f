import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from './__fixtures__/sandbox.ts';
import { createFilesystemServer } from './create-filesystem-server.ts';
import type { FilesystemServerOptions } from './filesystem-server-options.ts';

let sandbox: Sandbox;

beforeAll(() => {
  sandbox = createSandbox();
});

afterAll(() => sandbox.remove());

describe('filesystem server options', () => {
  it('accepts every option it documents', async () => {
    const server = createFilesystemServer({
      directories: [sandbox.allowed, { path: sandbox.sibling, access: 'read' }, `${sandbox.outside}:ro`],
      readOnly: true,
      maxReadBytes: 4096,
      maxMediaBytes: 8192,
      maxFileBytes: 8192,
      maxEntries: 100,
      maxDepth: 4,
      maxMatches: 10,
      regexTimeoutMs: 500,
    });
    await server.close();
  });

  it.each([
    [
      'a misspelt key',
      { directories: ['.'], maxEntrys: 5 },
      /unknown option "maxEntrys" at maxEntrys; did you mean "maxEntries"\?/,
    ],
    [
      'a misspelt key in a directory grant',
      { directories: [{ path: '.', acess: 'read' }] },
      /unknown option "acess" at directories\.0\.acess/,
    ],
    ['a cap of the wrong type', { directories: ['.'], maxDepth: '4' }, /maxDepth: Invalid input: expected number/],
    [
      'an access that is not read or write',
      { directories: [{ path: '.', access: 'ro' }] },
      /directories\.0: Invalid input/,
    ],
    ['no directories', {}, /directories: Invalid input/],
  ])('refuses %s, saying where', (_name, input, message) => {
    const create = () => createFilesystemServer(input as FilesystemServerOptions);
    expect(create).toThrow(message);
    expect(create).toThrow(/^@toolshed\/server-filesystem options: /);
  });
});
