/**
 * JSON-RPC 2.0 error codes (https://www.jsonrpc.org/specification#error_object),
 * and the ones MCP defines in the server range.
 */
export const JsonRpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** MCP 2025 era: resources/read or subscribe of a URI the server does not have (2026-07-28 uses -32602). */
  ResourceNotFound: -32002,
  /** MCP 2026-07-28: an HTTP header disagrees with the body, or a required one is missing. */
  HeaderMismatch: -32020,
  /** MCP 2026-07-28: the request needs a client capability its `_meta` did not declare. */
  MissingRequiredClientCapability: -32021,
  /** MCP 2026-07-28: the request's protocol version is not one the server speaks. */
  UnsupportedProtocolVersion: -32022,
} as const;

export type JsonRpcErrorCode = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];
