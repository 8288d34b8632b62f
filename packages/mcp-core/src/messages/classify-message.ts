import { isPlainObject } from './is-plain-object.ts';
import { JsonRpcErrorCode } from './jsonrpc-error-code.ts';
import type {
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonRpcResponse,
} from './jsonrpc-message.ts';

/** One incoming frame, sorted by what it is, or why it is not a valid message. */
export type ClassifiedMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; id: JsonRpcId | null; error: JsonRpcErrorObject };

/** Ids MCP accepts: strings, and integers that survive a round trip through JSON. */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

function invalid(id: JsonRpcId | null, message: string): ClassifiedMessage {
  return { kind: 'invalid', id, error: { code: JsonRpcErrorCode.InvalidRequest, message } };
}

/**
 * Sorts one parsed JSON value into request, notification or response, checking
 * the JSON-RPC 2.0 envelope rules MCP adds to (string or integer ids, never null;
 * params an object).
 */
export function classifyMessage(value: unknown): ClassifiedMessage {
  if (!isPlainObject(value)) return invalid(null, 'Invalid request: a JSON-RPC message must be a JSON object');
  const hasId = 'id' in value;
  const id = hasId && isJsonRpcId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0') return invalid(id, 'Invalid request: "jsonrpc" must be exactly "2.0"');
  if (hasId && id === null) {
    return invalid(
      null,
      'Invalid request: "id" must be a string or an integer (not null, not fractional, within ±2^53)',
    );
  }
  if ('method' in value) {
    if (typeof value.method !== 'string' || value.method.length === 0) {
      return invalid(id, 'Invalid request: "method" must be a non-empty string');
    }
    if ('params' in value && value.params !== undefined && !isPlainObject(value.params)) {
      return invalid(id, 'Invalid request: "params" must be an object');
    }
    if (id === null) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  if (id !== null && ('result' in value || 'error' in value)) {
    return { kind: 'response', message: value as unknown as JsonRpcResponse };
  }
  return invalid(id, 'Invalid request: expected "method" (request or notification) or "result"/"error" (response)');
}
