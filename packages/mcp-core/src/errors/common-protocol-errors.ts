import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import { ProtocolError } from './protocol-error.ts';

/** -32602, with a message that says what was wrong and what to send instead. */
export function invalidParams(message: string): ProtocolError {
  return new ProtocolError(JsonRpcErrorCode.InvalidParams, message);
}

/** -32601, naming the method (cut to 100 characters: it is the peer's text). */
export function methodNotFound(method: string): ProtocolError {
  return new ProtocolError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method.slice(0, 100)}`);
}
