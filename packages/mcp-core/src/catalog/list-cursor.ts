import { ProtocolError } from '../errors/protocol-error.ts';
import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';

const cursorPrefix = 'after:';

/**
 * Cursors name the last item of the previous page, not an offset, so that an
 * item added or removed between pages shifts nothing. Opaque to clients.
 */
export function encodeListCursor(lastKey: string): string {
  return Buffer.from(cursorPrefix + lastKey, 'utf8').toString('base64url');
}

/** The key a cursor names; a cursor this server did not issue is a -32602. */
export function decodeListCursor(cursor: unknown, method: string): string {
  if (typeof cursor === 'string' && cursor.length <= 2800) {
    const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
    // Node's decoder skips characters it does not know; a round trip catches them.
    if (decoded.startsWith(cursorPrefix) && encodeListCursor(decoded.slice(cursorPrefix.length)) === cursor) {
      return decoded.slice(cursorPrefix.length);
    }
  }
  throw new ProtocolError(
    JsonRpcErrorCode.InvalidParams,
    `Invalid cursor: pass the nextCursor of a previous ${method} result unchanged, or none for the first page`,
  );
}
