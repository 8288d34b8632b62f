/**
 * The Toolshed protocol engine: define tools, prompts and resources, serve
 * them over stdio, Streamable HTTP or in memory, in both protocol eras: the
 * 2025 revisions with `initialize` and sessions, and the stateless 2026-07-28.
 *
 * @module
 */
export { defineView, type ViewDefinitionInput } from './apps/define-view.ts';
export { isAppOnlyTool, type ToolViewOptions, type ToolVisibility, toolViewMeta } from './apps/tool-view-meta.ts';
export { declaresUi, uiExtension, viewMimeType } from './apps/ui-extension.ts';
export { type ViewDocumentInput, viewDocument } from './apps/view-document.ts';
export { type CliOptionSpec, type CliSpec, type CliValues, defineCli } from './cli/cli-spec.ts';
export { formatCliHelp } from './cli/format-cli-help.ts';
export { withOptionsTable } from './cli/format-options-table.ts';
export { httpCliOptions } from './cli/http-cli-options.ts';
export { packageVersion } from './cli/package-version.ts';
export { type CliCommand, parseCliOptions } from './cli/parse-cli-options.ts';
export { redirectConsoleToStderr } from './cli/redirect-console.ts';
export { runCli } from './cli/run-cli.ts';
export { runServerCli } from './cli/run-server-cli.ts';
export { type HttpCliValues, httpOptionsFromCli, serve } from './cli/serve.ts';
export { type ServeStdioOptions, serveStdio } from './cli/serve-stdio.ts';
export { defineServerCli, type OptionReader, type ServerCli, type ServerCliDefinition } from './cli/server-cli.ts';
export type { Completer, CompletionContext } from './completion/completer.ts';
export type { AuthInfo, CallContext, ConfirmOutcome, ElicitOutcome, ElicitRequest } from './engine/call-context.ts';
export type { RequestFacts, RequestTelemetry } from './engine/request-telemetry.ts';
export type { ElicitationUnavailablePolicy } from './engine/server-core.ts';
export { LocalError, type LocalErrorCode } from './errors/local-error.ts';
export { ProtocolError } from './errors/protocol-error.ts';
export { ToolError } from './errors/tool-error.ts';
export { randomHex } from './ids/random-hex.ts';
export { type LogLevel, logLevels } from './logging/log-level.ts';
export { JsonRpcErrorCode } from './messages/jsonrpc-error-code.ts';
export type {
  JsonRpcErrorObject,
  JsonRpcErrorResponse,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcPayload,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccessResponse,
} from './messages/jsonrpc-message.ts';
export type { ModernExchange } from './modern/answer-modern-request.ts';
export type { RequestStateLedger } from './modern/request-state.ts';
export { closestName } from './options/closest-name.ts';
export { limitOption } from './options/limit-option.ts';
export type { OptionMeta } from './options/option-meta.ts';
export { parseOptions } from './options/parse-options.ts';
export {
  definePrompt,
  type Prompt,
  type PromptDefinitionInput,
  type PromptGetValue,
} from './prompts/define-prompt.ts';
export type {
  AudioContent,
  CallToolResult,
  ClientCapabilities,
  ContentAnnotations,
  ContentBlock,
  EmbeddedResource,
  GetPromptResult,
  Icon,
  ImageContent,
  Implementation,
  PromptArgument,
  PromptDescriptor,
  PromptMessage,
  ResourceContents,
  ResourceDescriptor,
  ResourceLink,
  ResourceTemplateDescriptor,
  Root,
  SamplingMessage,
  SamplingRequest,
  SamplingResult,
  ServerCapabilities,
  TextContent,
  ToolAnnotations,
  ToolDescriptor,
} from './protocol/mcp-types.ts';
export { MetaKey } from './protocol/meta-keys.ts';
export {
  latestLegacyProtocolVersion,
  latestProtocolVersion,
  legacyProtocolVersions,
  modernProtocolVersions,
  supportedProtocolVersions,
} from './protocol/protocol-version.ts';
export { defineResource, type Resource, type ResourceDefinitionInput } from './resources/define-resource.ts';
export {
  defineResourceTemplate,
  type ResourceTemplate,
  type ResourceTemplateDefinitionInput,
} from './resources/define-resource-template.ts';
export type { ResourceReadValue } from './resources/resource-contents.ts';
export type { ContentAnnotationsInput, ContentOptions } from './results/content-annotations.ts';
export {
  audioContent,
  type EmbeddedResourceInput,
  embeddedResourceContent,
  imageContent,
  type ResourceLinkInput,
  resourceLinkContent,
  textContent,
} from './results/content-blocks.ts';
export { structuredResult, type ToolResult, toolError, toolResult } from './results/tool-result.ts';
export {
  type ConnectOptions,
  createMcpServer,
  type McpServer,
  type McpServerOptions,
  type ServerConnection,
} from './server/create-mcp-server.ts';
export { createMemoryTaskStore } from './tasks/memory-task-store.ts';
export type { TaskOptions } from './tasks/task-service.ts';
export {
  isTerminal as isTerminalTaskStatus,
  type TaskChange,
  type TaskError,
  type TaskRecord,
  type TaskSignal,
  type TaskStatus,
  type TaskStore,
} from './tasks/task-store.ts';
export { tasksExtension } from './tasks/task-wire.ts';
export {
  executeToolOperation,
  McpAttribute,
  McpMetric,
  mcpDurationBuckets,
  toolErrorType,
  traceContextMetaKeys,
} from './telemetry/mcp-semantic-conventions.ts';
export {
  processTelemetry,
  type StartTelemetryOptions,
  startTelemetry,
  stopTelemetry,
} from './telemetry/process-telemetry.ts';
export {
  defineTool,
  type TaskSupport,
  type Tool,
  type ToolDefinitionInput,
  type ToolJsonSchemas,
  type ToolRunResult,
  type ToolSchema,
} from './tools/define-tool.ts';
export { onFirstUse } from './tools/on-first-use.ts';
export type { StandardSchemaV1 } from './tools/standard-schema.ts';
export type { JsonObjectSchema, ToolArguments, ToolInputSchema } from './tools/tool-input.ts';
export type {
  BearerTokenVerifier,
  HttpAuthOptions,
  JwtAuthOptions,
  StaticBearerToken,
  TokenHolder,
} from './transports/http/auth/http-auth-options.ts';
export type { HttpServeOptions, Readiness } from './transports/http/http-options.ts';
export { mcpNameParams } from './transports/http/mcp-name-params.ts';
export { hostName as hostHeaderName, isLoopbackAddress } from './transports/http/origin-guard.ts';
export { type HttpServerHandle, serveHttp } from './transports/http/serve-http.ts';
export { createInMemoryTransportPair } from './transports/in-memory-transport.ts';
export { createStdioServerTransport, type StdioServerTransportOptions } from './transports/stdio-server-transport.ts';
export type { MessageExtra, Transport, TransportSendOptions } from './transports/transport.ts';
