/**
 * The names the OpenTelemetry semantic conventions for MCP give spans,
 * attributes and metrics (open-telemetry/semantic-conventions-genai,
 * `docs/gen-ai/mcp.md` and `model/mcp/*.yaml`). They are at Development
 * stability and may be renamed: every use goes through this one file.
 */
export const McpAttribute = {
  methodName: 'mcp.method.name',
  protocolVersion: 'mcp.protocol.version',
  sessionId: 'mcp.session.id',
  resourceUri: 'mcp.resource.uri',
  toolName: 'gen_ai.tool.name',
  promptName: 'gen_ai.prompt.name',
  operationName: 'gen_ai.operation.name',
  toolCallArguments: 'gen_ai.tool.call.arguments',
  toolCallResult: 'gen_ai.tool.call.result',
  requestId: 'jsonrpc.request.id',
  responseStatusCode: 'rpc.response.status_code',
  networkTransport: 'network.transport',
  errorType: 'error.type',
} as const;

/** `gen_ai.operation.name` of a tool call. */
export const executeToolOperation = 'execute_tool';

/** `error.type` of a call whose result has `isError: true`. */
export const toolErrorType = 'tool_error';

export const McpMetric = {
  serverOperationDuration: 'mcp.server.operation.duration',
  serverSessionDuration: 'mcp.server.session.duration',
  clientOperationDuration: 'mcp.client.operation.duration',
} as const;

/** The explicit bucket boundaries, in seconds, the conventions give every MCP duration histogram. */
export const mcpDurationBuckets: readonly number[] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** The `params._meta` keys trace context travels in, unprefixed as SEP-414 reserves them. */
export const traceContextMetaKeys: readonly string[] = ['traceparent', 'tracestate', 'baggage'];
