import { JsonRpcErrorCode } from '../messages/jsonrpc-error-code.ts';
import { supportedProtocolVersions } from '../protocol/protocol-version.ts';
import { ProtocolError } from './protocol-error.ts';

/** -32602, with a message that says what was wrong and what to send instead. */
export function invalidParams(message: string): ProtocolError {
  return new ProtocolError(JsonRpcErrorCode.InvalidParams, message);
}

/** -32601, naming the method (cut to 100 characters: it is the peer's text). */
export function methodNotFound(method: string): ProtocolError {
  return new ProtocolError(JsonRpcErrorCode.MethodNotFound, `Method not found: ${method.slice(0, 100)}`);
}

/** -32022 with the versions we speak, so the client can retry with one of them. */
export function unsupportedProtocolVersion(requested: unknown): ProtocolError {
  const shown = typeof requested === 'string' ? requested.slice(0, 40) : String(requested).slice(0, 40);
  return new ProtocolError(
    JsonRpcErrorCode.UnsupportedProtocolVersion,
    `Unsupported protocol version: ${JSON.stringify(shown)}; supported: ${supportedProtocolVersions.join(', ')}`,
    { supported: supportedProtocolVersions, requested: typeof requested === 'string' ? requested : shown },
  );
}

/** -32020: what a header says is not what the body says, or a required header is missing. */
export function headerMismatch(message: string): ProtocolError {
  return new ProtocolError(JsonRpcErrorCode.HeaderMismatch, `Header mismatch: ${message}`);
}

/** -32021, with the capabilities that were needed as a ClientCapabilities object. */
export function missingClientCapability(required: Record<string, object>, why: string): ProtocolError {
  return new ProtocolError(
    JsonRpcErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: ${Object.keys(required).join(', ')} (${why})`,
    { requiredCapabilities: required },
  );
}
