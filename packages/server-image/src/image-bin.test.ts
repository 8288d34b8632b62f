import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { recordMessages, spawnHttpServer } from '@toolshed/mcp-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngDeclaring } from './__fixtures__/crafted-images.ts';
import { photo } from './__fixtures__/sample-images.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;
let directory: string;
let images: string;
let out: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-image-bin-'));
  images = join(directory, 'images');
  out = join(directory, 'out');
  mkdirSync(images);
  mkdirSync(out);
  writeFileSync(join(images, 'large.jpg'), await (await photo(4000, 3000)).jpeg().toBuffer());
  writeFileSync(join(images, 'declared-50000.png'), pngDeclaring(50_000, 50_000));
  writeFileSync(join(images, 'zeros-144mp.png'), pngDeclaring(12_000, 12_000, 12_000));
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

/** Peak resident memory of a process, from the kernel. */
function peakRssBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmHWM:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? Number.NaN) * 1024;
}

describe('toolshed-image bin', () => {
  it.each([
    [['/nonexistent/pictures'], /\/nonexistent\/pictures does not exist; allowed directories must exist/],
    [['--output-dir', '/nonexistent/out'], /\/nonexistent\/out does not exist/],
    [['--max-frames', '0'], /--max-frames: must be a whole number of at least 1/],
    [['--preview-max-edge', '20000'], /previewMaxEdge cannot be larger than maxOutputEdge/],
    [['--resize-everything'], /--resize-everything/],
  ])('exits 2 with one line for %j', async (args, message) => {
    const run = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [bin, ...args], { encoding: 'utf8' }, (error, _stdout, stderr) =>
        resolve({ status: error === null ? 0 : (child.exitCode ?? null), stderr }),
      );
      child.stdin?.end();
    });
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.status).toBe(2);
  });

  it('serves stdio, refuses bombs, and its memory stays bounded', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [bin, images, '--output-dir', out] });
    const recording = recordMessages(transport);
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(recording.transport);
    for (const path of ['declared-50000.png', 'zeros-144mp.png']) {
      const refused = await client.callTool({
        name: 'process_image',
        arguments: { path, operations: [{ op: 'resize', width: 100 }] },
      });
      expect(refused.isError).toBe(true);
    }
    const result = await client.callTool({
      name: 'process_image',
      arguments: { path: 'large.jpg', operations: [{ op: 'resize', width: 2000 }] },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      result: { width: 2000, height: 1500 },
      preview: { width: 1568, height: 1176, scaled: true },
    });
    expect(readdirSync(out)).toHaveLength(1);
    const peak = peakRssBytes(transport.pid ?? 0);
    expect(peak).toBeLessThan(300 * 1024 * 1024);
    expect(recording.specViolations()).toEqual([]);
    await client.close();
  });

  it('serves Streamable HTTP with --http to the v2 SDK client', async () => {
    const server = await spawnHttpServer([bin, '--http', '127.0.0.1:0']);
    try {
      const client = new ClientV2({ name: 'test', version: '1' });
      await client.connect(new StreamableHTTPClientTransport(server.url));
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(4);
      const data = (await (await photo(300, 200)).png().toBuffer()).toString('base64');
      const result = await client.callTool({
        name: 'process_image',
        arguments: { data, operations: [{ op: 'thumbnail', size: 50 }], format: 'webp' },
      });
      expect(result.structuredContent).toMatchObject({ result: { format: 'webp', width: 50, height: 50 } });
      expect((result.content as { type: string }[]).map((block) => block.type)).toEqual(['text', 'image']);
      await client.close();
    } finally {
      await server.stop();
    }
  });
});
