import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  binTestCases,
  connectTestClient,
  type TestClientKind,
  type TestTarget,
  type TestTransportKind,
  testClientKinds,
} from '@toolshed/mcp-core/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photo } from './__fixtures__/sample-images.ts';
import { renderedText } from './__fixtures__/text-images.ts';
import { createImageServer } from './create-image-server.ts';

const bin = new URL('./cli.ts', import.meta.url).pathname;

// Each bin case starts a process and its SDK client; generous, as a guard against a hang rather than a speed bar.
const binCaseTimeoutMs = 60_000;

let directory: string;
let images: string;
let out: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'toolshed-image-eras-'));
  images = join(directory, 'images');
  out = join(directory, 'out');
  mkdirSync(images);
  mkdirSync(out);
  writeFileSync(join(images, 'photo.jpg'), await (await photo(800, 600)).jpeg().toBuffer());
  writeFileSync(join(images, 'text.png'), await renderedText(20));
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function expectImageWorks(target: TestTarget, client: TestClientKind, transport: TestTransportKind) {
  const connection = await connectTestClient(target, { client, transport });
  try {
    expect((await connection.listTools()).map((tool) => tool.name).sort()).toEqual([
      'compare_images',
      'extract_text',
      'image_info',
      'process_image',
    ]);
    const resized = await connection.callTool('process_image', {
      path: 'photo.jpg',
      operations: [{ op: 'resize', width: 400 }],
    });
    expect(resized.isError).toBeFalsy();
    expect(resized.structuredContent).toMatchObject({
      source: { format: 'jpeg', width: 800, height: 600 },
      result: { format: 'jpeg', width: 400, height: 300 },
    });
    const file = resized.structuredContent?.file as { path: string };
    expect(file.path.startsWith(out)).toBe(true);
    expect(await sharp(file.path).metadata()).toMatchObject({ format: 'jpeg', width: 400, height: 300 });
    const preview = resized.content.find((block) => block.type === 'image');
    expect(preview?.mimeType).toBe('image/jpeg');
    const previewBytes = Buffer.from(String(preview?.data), 'base64');
    expect(await sharp(previewBytes).metadata()).toMatchObject({ width: 400, height: 300 });
    const noSize = await connection.callTool('process_image', { path: 'photo.jpg', operations: [{ op: 'resize' }] });
    expect(noSize.isError).toBe(true);
    expect(noSize.content[0]?.text).toMatch(/needs a width, a height, or both/);
    const read = await connection.callTool('extract_text', { path: 'text.png' });
    expect(read.structuredContent?.text).toMatch(/The quick brown fox/);
    expect(read.content[0]?.text).toMatch(/<untrusted-ocr-[0-9a-f]{16}>\nThe quick brown fox/);
    const compared = await connection.callTool('compare_images', {
      a: { path: 'photo.jpg' },
      b: { path: 'photo.jpg' },
    });
    expect(compared.structuredContent).toMatchObject({ mismatched_pixels: 0, similarity: 1 });
    expect(connection.protocolProblems()).toEqual([]);
  } finally {
    await connection.close();
  }
}

describe('toolshed-image in both protocol eras', () => {
  it.each(binTestCases)(
    '%s client over %s to the bin',
    (client, transport) => expectImageWorks({ bin: [bin, images, '--output-dir', out] }, client, transport),
    binCaseTimeoutMs,
  );

  it.each(testClientKinds)('%s client in memory to createImageServer', async (client) => {
    const server = createImageServer({ directories: [images], outputDirectory: out });
    try {
      await expectImageWorks({ server }, client, 'memory');
    } finally {
      await server.close();
    }
  });
});
