import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageServer } from './create-image-server.ts';
import type { ImageServerOptions } from './image-server-options.ts';

let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-image-options-'));
  mkdirSync(join(directory, 'images'));
  mkdirSync(join(directory, 'out'));
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('image server options', () => {
  it('accepts every option it documents', async () => {
    const server = createImageServer({
      directories: [join(directory, 'images'), { path: directory, access: 'read' }],
      outputDirectory: join(directory, 'out'),
      allowUrls: true,
      trustedHosts: ['images.intranet'],
      dnsServers: ['127.0.0.1:53'],
      limits: {
        maxInputBytes: 1024,
        maxInputPixels: 1000,
        maxFrames: 2,
        maxOutputEdge: 100,
        previewMaxEdge: 50,
        previewMaxBytes: 1000,
        timeoutMs: 1000,
        maxConcurrent: 1,
        maxQueued: 1,
        urlTimeoutMs: 1000,
        maxRedirects: 1,
      },
    });
    await server.close();
  });

  it.each([
    [
      'a misspelt key',
      { outputDirectroy: '.' },
      /unknown option "outputDirectroy" at outputDirectroy; did you mean "outputDirectory"\?/,
    ],
    [
      'a misspelt cap',
      { limits: { maxFramez: 5 } },
      /unknown option "maxFramez" at limits\.maxFramez; did you mean "maxFrames"\?/,
    ],
    [
      'a cap of the wrong type',
      { limits: { timeoutMs: '5s' } },
      /limits\.timeoutMs: must be a whole number of at least 1/,
    ],
    ['a cap below 1', { limits: { maxFrames: 0 } }, /limits\.maxFrames: must be a whole number of at least 1/],
    ['hosts given as one string', { trustedHosts: 'images.intranet' }, /trustedHosts: Invalid input: expected array/],
  ])('refuses %s, saying where', (_name, input, message) => {
    const create = () => createImageServer(input as ImageServerOptions);
    expect(create).toThrow(message);
    expect(create).toThrow(/^@toolshed\/server-image options: /);
  });
});
