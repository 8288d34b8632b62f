import { LocalError } from '../errors/local-error.ts';
import type { ResourceContents } from '../protocol/mcp-types.ts';

/** What a resource's `read` may return: text, bytes, or the contents spelled out. */
export type ResourceReadValue = string | Uint8Array | ResourceContents | ResourceContents[];

function isContents(value: unknown): value is ResourceContents {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.uri === 'string' && (typeof candidate.text === 'string' || typeof candidate.blob === 'string')
  );
}

/**
 * Turns what `read` returned into `resources/read` contents: text keeps the
 * resource's MIME type (text/plain when it has none), bytes become base64
 * (application/octet-stream when it has none).
 */
export function toResourceContents(value: unknown, uri: string, mimeType: string | undefined): ResourceContents[] {
  if (typeof value === 'string') return [{ uri, mimeType: mimeType ?? 'text/plain', text: value }];
  if (value instanceof Uint8Array) {
    return [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob: Buffer.from(value).toString('base64') }];
  }
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 0 && list.every(isContents)) return list;
  throw new LocalError(
    'content_invalid',
    `Resource "${uri}" read returned neither text, bytes, nor contents with a uri and text or blob`,
  );
}
