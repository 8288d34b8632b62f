import { extname } from 'node:path';

// The reference server's table, so the same files come back as the same blocks.
const mediaTypes: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
};

/** The MIME type a file's extension says, or application/octet-stream. */
export function mediaTypeOf(path: string): string {
  return mediaTypes[extname(path).toLowerCase()] ?? 'application/octet-stream';
}
