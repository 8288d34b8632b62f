import { ProtocolError } from '../errors/protocol-error.ts';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';

const cursorPrefix = 'after:';

/**
 * Cursors name the last tool of the previous page, not an offset, so that a
 * tool added or removed between pages shifts nothing. Opaque to clients.
 */
export function encodeToolCursor(lastName: string): string {
  return Buffer.from(cursorPrefix + lastName, 'utf8').toString('base64url');
}

export function decodeToolCursor(cursor: unknown): string {
  if (typeof cursor === 'string' && cursor.length <= 200) {
    const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
    // Node's decoder skips characters it does not know; a round trip catches them.
    if (decoded.startsWith(cursorPrefix) && encodeToolCursor(decoded.slice(cursorPrefix.length)) === cursor) {
      return decoded.slice(cursorPrefix.length);
    }
  }
  throw new ProtocolError(
    JsonRpcErrorCode.InvalidParams,
    'Invalid cursor: pass the nextCursor of a previous tools/list result unchanged, or none for the first page',
  );
}
