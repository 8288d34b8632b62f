import { LocalError } from '../errors/local-error.ts';
import type { AudioContent, EmbeddedResource, ImageContent, ResourceLink, TextContent } from '../protocol/mcp-types.ts';
import { type ContentOptions, withContentOptions } from './content-annotations.ts';

function toBase64(data: Uint8Array | string): string {
  return typeof data === 'string'
    ? data
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

function requireMimeType(mimeType: string, kind: string): void {
  if (!/^[\w.+-]+\/[\w.+-]+$/.test(mimeType)) {
    throw new LocalError('content_invalid', `${kind} content needs a MIME type like "image/png"; got "${mimeType}"`);
  }
}

/**
 * Text for the model or the user.
 *
 * @example
 * textContent('3 files changed', { annotations: { audience: ['user'] } })
 */
export function textContent(text: string, options?: ContentOptions): TextContent {
  return withContentOptions({ type: 'text', text }, options);
}

/**
 * An image, from bytes or base64.
 *
 * @example
 * imageContent(await readFile('chart.png'), 'image/png')
 */
export function imageContent(data: Uint8Array | string, mimeType: string, options?: ContentOptions): ImageContent {
  requireMimeType(mimeType, 'Image');
  return withContentOptions({ type: 'image', data: toBase64(data), mimeType }, options);
}

/**
 * Audio, from bytes or base64.
 *
 * @example
 * audioContent(wavBytes, 'audio/wav')
 */
export function audioContent(data: Uint8Array | string, mimeType: string, options?: ContentOptions): AudioContent {
  requireMimeType(mimeType, 'Audio');
  return withContentOptions({ type: 'audio', data: toBase64(data), mimeType }, options);
}

/** A resource link's fields; `size` is in bytes. */
export type ResourceLinkInput = Omit<ResourceLink, 'type' | 'annotations' | '_meta'>;

/**
 * A pointer to a resource the client can read later, instead of its bytes.
 *
 * @example
 * resourceLinkContent({ uri: 'file:///work/report.pdf', name: 'report.pdf', mimeType: 'application/pdf' })
 */
export function resourceLinkContent(link: ResourceLinkInput, options?: ContentOptions): ResourceLink {
  return withContentOptions({ type: 'resource_link', ...link }, options);
}

export type EmbeddedResourceInput =
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType?: string; blob: Uint8Array | string };

/**
 * A resource's contents inline: text, or binary as base64.
 *
 * @example
 * embeddedResourceContent({ uri: 'sql://main/schema', mimeType: 'text/plain', text: schemaText })
 */
export function embeddedResourceContent(resource: EmbeddedResourceInput, options?: ContentOptions): EmbeddedResource {
  const contents = 'text' in resource ? { ...resource } : { ...resource, blob: toBase64(resource.blob) };
  return withContentOptions({ type: 'resource', resource: contents }, options);
}
