import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServer } from '@toolshed/mcp-core';
import { connectInMemory } from '@toolshed/mcp-core/testing';
import sharp, { type Metadata } from 'sharp';
import { createImageServer } from '../create-image-server.ts';
import type { ImageServerOptions } from '../image-server-options.ts';

export type ContentBlock = { type: string; text?: string; data?: string; mimeType?: string; uri?: string };

export type CallResult = {
  content: ContentBlock[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

export interface ImageHarness {
  server: McpServer;
  client: Client;
  /** A temporary directory: inputs in `images/`, results in `out/`. */
  directory: string;
  images: string;
  out: string;
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallResult>;
  specViolations(): unknown[];
  close(): Promise<void>;
}

/** An image server over a temporary directory, driven by the official SDK client in memory. */
export async function startImageHarness(
  options: (directories: { images: string; out: string }) => ImageServerOptions = ({ images, out }) => ({
    directories: [images],
    outputDirectory: out,
  }),
): Promise<ImageHarness> {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-image-'));
  const images = join(directory, 'images');
  const out = join(directory, 'out');
  mkdirSync(images);
  mkdirSync(out);
  const server = createImageServer(options({ images, out }));
  const client = new Client({ name: 'image-test', version: '1' });
  const { recording } = await connectInMemory(server, client);
  return {
    server,
    client,
    directory,
    images,
    out,
    call: async (name, args, callOptions) =>
      (await client.callTool({ name, arguments: args }, undefined, callOptions)) as CallResult,
    specViolations: () => recording.specViolations(),
    async close() {
      await client.close();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The text of a result's first block. */
export function textOf(result: CallResult): string {
  return result.content[0]?.text ?? '';
}

/** The image block of a result, decoded by sharp: what a client would see. */
export async function imageOf(result: CallResult): Promise<{ bytes: Buffer; mimeType: string; metadata: Metadata }> {
  const block = result.content.find((item) => item.type === 'image');
  if (block?.data === undefined) throw new Error(`no image block in ${textOf(result).slice(0, 300)}`);
  const bytes = Buffer.from(block.data, 'base64');
  return { bytes, mimeType: block.mimeType ?? '', metadata: await sharp(bytes).metadata() };
}

const sourceAndOutputKeys = new Set([
  'path',
  'url',
  'data',
  'format',
  'quality',
  'lossless',
  'output_name',
  'keep_metadata',
]);

/**
 * process_image arguments for one step: the image and output arguments stay
 * beside `operations`, the rest become the step's.
 *
 * @example oneStep('resize', { path: 'photo.png', width: 400, format: 'webp' })
 */
export function oneStep(op: string, args: Record<string, unknown>): Record<string, unknown> {
  const outer: Record<string, unknown> = {};
  const step: Record<string, unknown> = { op };
  for (const [key, value] of Object.entries(args)) (sourceAndOutputKeys.has(key) ? outer : step)[key] = value;
  return { ...outer, operations: [step] };
}
