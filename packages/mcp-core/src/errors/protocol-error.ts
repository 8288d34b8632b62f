import { hasBrand, markBranded } from './brand.ts';

const protocolErrorBrand = Symbol.for('@toolshed/mcp-core/ProtocolError');

/**
 * An error that crosses the wire as a JSON-RPC error object. Its message is
 * shown to the peer, so it never carries stack traces or file paths.
 *
 * @example
 * throw new ProtocolError(JsonRpcErrorCode.InvalidParams, 'Unknown tool: "wether"');
 */
export class ProtocolError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    markBranded(this, protocolErrorBrand);
    this.name = 'ProtocolError';
    this.code = code;
    this.data = data;
  }

  static isInstance(value: unknown): value is ProtocolError {
    return hasBrand(value, protocolErrorBrand);
  }
}
