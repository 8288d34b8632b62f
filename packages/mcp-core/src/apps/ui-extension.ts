import { isPlainObject } from '../messages/is-plain-object.ts';

/**
 * The MCP Apps extension's identifier, as a client declares it under
 * `capabilities.extensions` (in `initialize` in the 2025 era, in each
 * request's `_meta` client capabilities in the 2026 era).
 */
export const uiExtension = 'io.modelcontextprotocol/ui';

/** The MIME type of a view: HTML a host renders in a sandboxed frame. */
export const viewMimeType = 'text/html;profile=mcp-app';

/**
 * Whether a client renders views: it declares the UI extension, and when it
 * lists the MIME types it renders, ours is among them.
 */
export function declaresUi(capabilities: Readonly<Record<string, unknown>>): boolean {
  const extensions = capabilities.extensions;
  if (!isPlainObject(extensions)) return false;
  const ui = extensions[uiExtension];
  if (!isPlainObject(ui)) return false;
  const { mimeTypes } = ui;
  return mimeTypes === undefined || (Array.isArray(mimeTypes) && mimeTypes.includes(viewMimeType));
}
