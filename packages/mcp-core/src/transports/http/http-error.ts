import type { ServerResponse } from 'node:http';
import type { JsonRpcErrorObject, JsonRpcId, JsonRpcMessage } from '../../messages/jsonrpc-message.ts';

/** MCP's server-range codes the HTTP layer uses alongside JSON-RPC's own. */
export const HttpErrorCode = {
  /** The session id names no live session (ended, expired, or never issued). */
  SessionNotFound: -32001,
  /** Everything the HTTP layer refuses that is not a JSON-RPC shape error. */
  Refused: -32000,
} as const;

/**
 * Answers with a JSON-RPC error body, whatever went wrong: clients parse JSON,
 * never an HTML error page.
 */
export function writeJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: JsonRpcId | null = null,
  data?: unknown,
): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const error: JsonRpcErrorObject = { code, message };
  if (data !== undefined) error.data = data;
  writeJsonMessage(res, status, { jsonrpc: '2.0', id, error }, headers);
}

/** One JSON-RPC message as the whole JSON body of a response. */
export function writeJsonMessage(
  res: ServerResponse,
  status: number,
  message: JsonRpcMessage,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify(message);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}
