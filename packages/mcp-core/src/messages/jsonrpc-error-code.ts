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
  /** MCP: resources/read or subscribe of a URI the server does not have. */
  ResourceNotFound: -32002,
} as const;

export type JsonRpcErrorCode = (typeof JsonRpcErrorCode)[keyof typeof JsonRpcErrorCode];
