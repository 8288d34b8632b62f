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
      limits: {
        maxReadBytes: 4096,
        maxMediaBytes: 8192,
        maxFileBytes: 8192,
        maxEntries: 100,
        maxDepth: 4,
        maxMatches: 10,
        regexTimeoutMs: 500,
      },
    });
    await server.close();
  });

  it.each([
    [
      'a misspelt cap',
      { directories: ['.'], limits: { maxEntrys: 5 } },
      /unknown option "maxEntrys" at limits\.maxEntrys; did you mean "maxEntries"\?/,
    ],
    [
      'a cap outside limits',
      { directories: ['.'], maxEntries: 5 },
      /unknown option "maxEntries" at maxEntries; did you mean "limits\.maxEntries"\?/,
    ],
    [
      'a misspelt key in a directory grant',
      { directories: [{ path: '.', acess: 'read' }] },
      /unknown option "acess" at directories\.0\.acess/,
    ],
    [
      'a cap of the wrong type',
      { directories: ['.'], limits: { maxDepth: '4' } },
      /limits\.maxDepth: must be a whole number of at least 1/,
    ],
    ['a cap below 1', { directories: ['.'], limits: { maxDepth: 0 } }, /limits\.maxDepth: must be a whole number/],
    [
      'an access that is not read or write',
      { directories: [{ path: '.', access: 'ro' }] },
      /directories\.0\.access: Invalid option: expected one of "read"\|"write"/,
    ],
    ['no directories', {}, /directories: Invalid input/],
  ])('refuses %s, saying where', (_name, input, message) => {
    const create = () => createFilesystemServer(input as FilesystemServerOptions);
    expect(create).toThrow(message);
    expect(create).toThrow(/^@toolshed\/server-filesystem options: /);
  });
});
