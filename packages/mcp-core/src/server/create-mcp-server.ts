import type { CallContext } from '../engine/call-context.ts';
import { createServerCore } from '../engine/create-server-core.ts';
import type { RequestFacts, RequestTelemetry } from '../engine/request-telemetry.ts';
import type { ElicitationUnavailablePolicy } from '../engine/server-core.ts';
import { invalidParams } from '../errors/common-protocol-errors.ts';
import { LocalError } from '../errors/local-error.ts';
import type { JsonRpcRequest, JsonRpcResponse } from '../messages/jsonrpc-message.ts';
import { answerModernRequest, type ModernExchange, type ModernServices } from '../modern/answer-modern-request.ts';
import { createMemoryRequestStateLedger, type RequestStateLedger, RequestStateSeal } from '../modern/request-state.ts';
import type { Prompt } from '../prompts/define-prompt.ts';
import type { CallToolResult, Implementation } from '../protocol/mcp-types.ts';
import type { Resource } from '../resources/define-resource.ts';
import type { ResourceTemplate } from '../resources/define-resource-template.ts';
import { type AssumedInitialize, LegacySession } from '../session/legacy-session.ts';
import { createMemoryTaskStore } from '../tasks/memory-task-store.ts';
import { type TaskOptions, TaskService } from '../tasks/task-service.ts';
import { processTelemetry } from '../telemetry/process-telemetry.ts';
import { CallCancelled, callTool } from '../tools/call-tool.ts';
import type { Tool } from '../tools/define-tool.ts';
import type { Transport } from '../transports/transport.ts';
import { DualEraConnection } from './dual-era-connection.ts';
import { withServerPolicy } from './with-server-policy.ts';

export interface McpServerOptions extends Implementation {
  /** Told to the model at initialize: how to use this server's tools together. */
  instructions?: string;
  tools?: readonly Tool[];
  /** Declares the prompts capability even when the list starts empty. */
  prompts?: readonly Prompt[];
  /** Declares the resources capability even when the list starts empty. */
  resources?: readonly Resource[];
  resourceTemplates?: readonly ResourceTemplate[];
  /** Items per list page (tools, prompts, resources). Default 100. */
  pageSize?: number;
  /**
   * When a tool asks the user but the client cannot ask: `fail` (default) ends
   * the call with an error the model can read; `decline` lets the tool see an
   * `unavailable` outcome and decide.
   */
  whenElicitationUnavailable?: ElicitationUnavailablePolicy;
  /**
   * Receives failures that are the server's fault (a tool threw, a transport
   * broke). The client only ever sees a safe message. Default: one line on stderr.
   */
  onServerError?: (error: unknown, where: string) => void;
  /**
   * Runs once when `close()` has closed every connection: release what the
   * tools hold (child processes, pools, open files).
   */
  onClose?: () => void | Promise<void>;
  /**
   * The key that signs `requestState` between the rounds of a 2026-era
   * request that asks the user. Replicas behind one load balancer need the
   * same key; default: the TOOLSHED_REQUEST_STATE_KEY environment variable,
   * else a random key per process.
   */
  requestStateKey?: string | Uint8Array;
  /**
   * Where accepted `requestState` values are spent, so each is accepted once.
   * Replicas sharing a key should share a ledger; default: this process's memory.
   */
  requestStateLedger?: RequestStateLedger;
  /**
   * 2026 era: how long clients may reuse lists (`tools/list`, …) and resource
   * reads, in milliseconds (`ttlMs`). Default 0 for both: lists may change at any moment.
   */
  cacheTtlMs?: { lists?: number; reads?: number };
  /**
   * Where the calls that became tasks live (2026 era; tools opt in with
   * `task`). Replicas behind one load balancer share a store; default: this
   * process's memory.
   */
  tasks?: TaskOptions;
  /**
   * Spans and metrics for every request (OpenTelemetry with the MCP semantic
   * conventions). Default: what `startTelemetry` started in this process,
   * else none; `false` for none at all.
   */
  telemetry?: RequestTelemetry | false;
}

/** One client connected to a server. */
export interface ServerConnection {
  /** The protocol version negotiated, once initialize has run. */
  readonly protocolVersion: string | undefined;
  /** Resolves when the connection closes, from either side. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /**
   * For transports that keep no session (stateless HTTP): serve requests as
   * if `initialize` had run with this version and no client capabilities.
   */
  assumeInitialized?: AssumedInitialize;
}

export interface McpServer {
  readonly info: Implementation;
  addTool(tool: Tool): void;
  /** Returns whether a tool of that name was there. */
  removeTool(name: string): boolean;
  /** Disabled tools are hidden from tools/list and cannot be called. */
  setToolEnabled(name: string, enabled: boolean): void;
  toolNames(): string[];
  /** The enabled tool of that name. */
  getTool(name: string): Tool | undefined;
  addPrompt(prompt: Prompt): void;
  removePrompt(name: string): boolean;
  addResource(resource: Resource): void;
  removeResource(uri: string): boolean;
  addResourceTemplate(template: ResourceTemplate): void;
  removeResourceTemplate(name: string): boolean;
  /** Tells every client subscribed to this URI that it changed. */
  notifyResourceUpdated(uri: string): void;
  /**
   * Tells clients a list changed, for lists whose contents come from outside
   * the server's own registrations (changes to those are announced already).
   */
  notifyListChanged(list: 'tools' | 'prompts' | 'resources'): void;
  /**
   * Serves one client over the transport. A server serves any number of
   * connections; each one's first message decides its protocol era.
   */
  connect(transport: Transport, options?: ConnectOptions): Promise<ServerConnection>;
  /**
   * Answers one stateless (2026-era) request, for transports that carry each
   * request on its own (Streamable HTTP). Resolves `undefined` when the
   * exchange was cancelled first.
   */
  answer(request: JsonRpcRequest, exchange: ModernExchange): Promise<JsonRpcResponse | undefined>;
  /**
   * Calls one of this server's tools in this process, with no transport and
   * no JSON-RPC in between: for a host that composes servers and already has
   * a caller's context. The arguments are validated and every outcome of the
   * tool becomes a result, as for a `tools/call` from a client. The tool asks
   * and reports through `context` (the caller's era and capabilities decide
   * how); when its client cannot show a form, this server's
   * `whenElicitationUnavailable` decides, as on its own connections, and log
   * data is redacted as it is for them.
   *
   * Rejects with the ProtocolError a client would get for an unknown or
   * disabled tool (-32602), or for a question the caller's client cannot be
   * asked in the 2026 era (-32021); with the signal's reason when
   * `context.signal` aborts first.
   */
  callTool(name: string, args: Record<string, unknown>, context: CallContext): Promise<CallToolResult>;
  /** Closes every connection, then runs the `onClose` option once. */
  close(): Promise<void>;
}

function reportToStderr(error: unknown, where: string): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`[mcp-core] error in ${where}: ${text}\n`);
}

/**
 * Creates a server from its identity, tools, prompts and resources. It holds
 * no global state, so several servers with different options live side by
 * side in one process. Changes to any list reach connected clients as one
 * list_changed notification per burst.
 *
 * @example
 * const server = createMcpServer({ name: 'weather', version: '1.0.0', tools: [forecastTool] });
 * await server.connect(createStdioServerTransport());
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const pageSize = options.pageSize ?? 100;
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new LocalError('config_invalid', `pageSize must be a whole number of at least 1; got ${pageSize}`);
  }
  const info: Implementation = { name: options.name, version: options.version };
  for (const key of ['title', 'description', 'websiteUrl', 'icons'] as const) {
    if (options[key] !== undefined) Object.assign(info, { [key]: options[key] });
  }
  const report = options.onServerError ?? reportToStderr;
  const core = createServerCore({
    info,
    instructions: options.instructions,
    pageSize,
    elicitationUnavailable: options.whenElicitationUnavailable ?? 'fail',
    report,
    telemetry: options.telemetry === false ? undefined : (options.telemetry ?? processTelemetry()),
    offerResources: options.resources !== undefined || options.resourceTemplates !== undefined,
    offerPrompts: options.prompts !== undefined,
  });
  for (const tool of options.tools ?? []) core.tools.add(tool.name, tool);
  for (const prompt of options.prompts ?? []) core.prompts.add(prompt.name, prompt);
  for (const resource of options.resources ?? []) core.resources.add(resource.uri, resource);
  for (const template of options.resourceTemplates ?? []) core.resourceTemplates.add(template.name, template);
  for (const [name, value] of Object.entries(options.cacheTtlMs ?? {})) {
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new LocalError(
        'config_invalid',
        `cacheTtlMs.${name} must be a whole number of milliseconds ≥ 0; got ${value}`,
      );
    }
  }
  const closing = new AbortController();
  const modern: ModernServices = {
    core,
    seal: new RequestStateSeal(options.requestStateKey ?? process.env.TOOLSHED_REQUEST_STATE_KEY),
    ledger: options.requestStateLedger ?? createMemoryRequestStateLedger(),
    cacheHints: { listTtlMs: options.cacheTtlMs?.lists ?? 0, readTtlMs: options.cacheTtlMs?.reads ?? 0 },
    closing: closing.signal,
    tasks: new TaskService(options.tasks?.store ?? createMemoryTaskStore(), { ttlMs: options.tasks?.ttlMs }, report),
  };
  const connections = new Set<LegacySession | DualEraConnection>();
  let released: Promise<void> | undefined;
  const inProcessFacts = (): RequestFacts => ({
    protocolVersion: undefined,
    sessionId: undefined,
    networkTransport: undefined,
  });

  /** A call of one of this server's tools from this process, with no transport and no JSON-RPC in between. */
  async function callInProcess(
    name: string,
    args: Record<string, unknown>,
    context: CallContext,
  ): Promise<CallToolResult> {
    const tool = core.tools.get(name);
    if (tool === undefined) {
      // The engine's own answer to a tools/call for a tool it does not have.
      throw invalidParams(`Unknown tool: "${name.slice(0, 100)}". Call tools/list for the available tools.`);
    }
    try {
      return await callTool(tool, args, withServerPolicy(context, core.elicitationUnavailable), core.report);
    } catch (error) {
      if (error instanceof CallCancelled) throw context.signal.reason;
      throw error;
    }
  }

  return {
    info,
    addTool: (tool) => core.tools.add(tool.name, tool),
    removeTool: (name) => core.tools.remove(name),
    setToolEnabled: (name, enabled) => core.tools.setEnabled(name, enabled),
    toolNames: () => core.tools.keys(),
    getTool: (name) => core.tools.get(name),
    addPrompt: (prompt) => core.prompts.add(prompt.name, prompt),
    removePrompt: (name) => core.prompts.remove(name),
    addResource: (resource) => core.resources.add(resource.uri, resource),
    removeResource: (uri) => core.resources.remove(uri),
    addResourceTemplate: (template) => core.resourceTemplates.add(template.name, template),
    removeResourceTemplate: (name) => core.resourceTemplates.remove(name),
    notifyResourceUpdated: (uri) => core.emit({ type: 'resource_updated', uri }),
    notifyListChanged: (list) => core.emit({ type: 'list_changed', list }),
    async connect(transport, connectOptions) {
      const connection =
        connectOptions?.assumeInitialized === undefined
          ? new DualEraConnection(core, modern, transport)
          : new LegacySession(core, transport, connectOptions.assumeInitialized);
      connections.add(connection);
      void connection.closed.then(() => connections.delete(connection));
      await connection.start();
      return connection;
    },
    answer: async (request, exchange) => answerModernRequest(modern, request, exchange),
    callTool(name, args, context) {
      const { telemetry } = core;
      if (telemetry === undefined) return callInProcess(name, args, context);
      // A span like a client's request gets, a child of the caller's (a host's span for its upstream call).
      const request = { method: 'tools/call', params: { name, arguments: args } };
      return telemetry
        .serve(request, inProcessFacts, async () => ({ result: await callInProcess(name, args, context) }))
        .then((answer) => answer.result);
    },
    async close() {
      closing.abort();
      await modern.tasks.stopAll('The server shut down before the task finished');
      // Let open subscriptions send their closing results before the connections go.
      await new Promise((resolve) => setImmediate(resolve));
      await Promise.all([...connections].map((connection) => connection.close()));
      released ??= Promise.resolve(options.onClose?.());
      await released;
    },
  };
}
