import { basename, extname } from 'node:path';
import { ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ImageServerContext } from './image-server-context.ts';

/** Where an image comes from: exactly one of the three. */
export type ImageSourceArguments = {
  path?: string | undefined;
  url?: string | undefined;
  data?: string | undefined;
};

type ImageSourceFields = {
  path: z.ZodOptional<z.ZodString>;
  url: z.ZodOptional<z.ZodString>;
  data: z.ZodOptional<z.ZodString>;
};

/**
 * The three ways to give an image. The first tools describe each; later tools
 * name them in their description only, since the list costs tokens on every turn.
 */
export function imageSourceFields(options: { described?: boolean } = {}): ImageSourceFields {
  if (options.described === false) {
    // An empty value is refused by loadImage, with a message, rather than by a schema keyword sent every turn.
    return { path: z.string().optional(), url: z.string().optional(), data: z.string().optional() };
  }
  const field = () => z.string().min(1).optional();
  return {
    path: field().describe('A file in an allowed directory'),
    url: field().describe('http(s), if allowed'),
    data: field().describe('Base64'),
  };
}

/** An image argument that is itself `{path|url|data}`, advertised as a bare object to keep the list small. */
export function imageSourceObject(): z.ZodObject<ImageSourceFields, z.core.$strict> {
  return z.strictObject(imageSourceFields({ described: false })).meta({ properties: undefined });
}

export interface LoadedImage {
  bytes: Buffer;
  /** How messages name the input: the path or URL as given, or "the data". */
  label: string;
  /** A file-name stem for results written to the output directory. */
  stem: string;
}

const base64Text = /^[A-Za-z0-9+/]*={0,2}$/;
const dataUrlPrefix = /^data:[^,]{0,200};base64,/i;

function stemOf(name: string): string {
  const stem = basename(name, extname(name))
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '');
  return stem.slice(0, 64) || 'image';
}

function tooLarge(label: string, size: number, limit: number): ToolError {
  return new ToolError(`${label} is ${size} bytes; inputs over ${limit} bytes are not processed.`);
}

async function fromPath(path: string, context: ImageServerContext): Promise<LoadedImage> {
  if (context.inputs === undefined) {
    throw new ToolError('This server has no image directories configured; pass the image as data instead.');
  }
  const target = await context.inputs.resolve(path);
  const handle = await context.inputs.openFile(target);
  try {
    const { size } = await handle.stat();
    if (size > context.limits.maxInputBytes) throw tooLarge(`"${path}"`, size, context.limits.maxInputBytes);
    return { bytes: await handle.readFile(), label: `"${path}"`, stem: stemOf(target.path) };
  } finally {
    await handle.close();
  }
}

async function fromUrl(url: string, context: ImageServerContext, signal: AbortSignal): Promise<LoadedImage> {
  if (context.fetcher === undefined) {
    throw new ToolError(
      'This server does not download images (the operator has not enabled URL input); pass a path or the data instead.',
    );
  }
  const response = await context.fetcher.fetch(url, { signal });
  return { bytes: response.body, label: response.url.href, stem: stemOf(response.url.pathname) };
}

function fromData(data: string, context: ImageServerContext): LoadedImage {
  const text = data.replace(dataUrlPrefix, '').replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  const size = Math.floor((text.length * 3) / 4) - (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0);
  if (size > context.limits.maxInputBytes) throw tooLarge('The data', size, context.limits.maxInputBytes);
  if (!base64Text.test(text)) throw new ToolError('data is not base64: give the image bytes base64-encoded.');
  return { bytes: Buffer.from(text, 'base64'), label: 'the data', stem: 'image' };
}

/** The input's bytes, read within the limits; exactly one source must be given. */
export function loadImage(
  source: ImageSourceArguments,
  context: ImageServerContext,
  signal: AbortSignal,
  name = 'the image',
): Promise<LoadedImage> {
  const given = (['path', 'url', 'data'] as const).filter((key) => source[key] !== undefined);
  const empty = given.find((key) => source[key] === '');
  if (empty !== undefined)
    return Promise.reject(new ToolError(`${empty} is empty: give ${name} as a path, url or data.`));
  if (given.length !== 1) {
    const what = given.length === 0 ? 'none was given' : `got ${given.join(' and ')}`;
    return Promise.reject(new ToolError(`Give ${name} as exactly one of path, url or data; ${what}.`));
  }
  if (source.path !== undefined) return fromPath(source.path, context);
  if (source.url !== undefined) return fromUrl(source.url, context, signal);
  return Promise.resolve(fromData(source.data ?? '', context));
}
