import { LocalError } from '../errors/local-error.ts';
import type { Implementation } from '../protocol/mcp-types.ts';
import { LegacySession } from '../session/legacy-session.ts';
import type { Tool } from '../tools/define-tool.ts';
import { ToolRegistry } from '../tools/tool-registry.ts';
import type { Transport } from '../transports/transport.ts';
import type { ElicitationUnavailablePolicy, ServerCore } from './server-core.ts';

export interface McpServerOptions extends Implementation {
  /** Told to the model at initialize: how to use this server's tools together. */
  instructions?: string;
  tools?: readonly Tool[];
  /** Tools per tools/list page. Default 100. */
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
}

/** One client connected to a server. */
export interface ServerConnection {
  /** The protocol version negotiated, once initialize has run. */
  readonly protocolVersion: string | undefined;
  /** Resolves when the connection closes, from either side. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

export interface McpServer {
  readonly info: Implementation;
  addTool(tool: Tool): void;
  /** Returns whether a tool of that name was there. */
  removeTool(name: string): boolean;
  /** Disabled tools are hidden from tools/list and cannot be called. */
  setToolEnabled(name: string, enabled: boolean): void;
  toolNames(): string[];
  /** Serves one client over the transport. A server serves any number of connections. */
  connect(transport: Transport): Promise<ServerConnection>;
  /** Closes every connection. */
  close(): Promise<void>;
}

function reportToStderr(error: unknown, where: string): void {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`[mcp-core] error in ${where}: ${text}\n`);
}

/**
 * Creates a server from its identity and tools. It holds no global state, so
 * several servers with different options live side by side in one process.
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
  const listeners = new Set<() => void>();
  const tools = new ToolRegistry(() => {
    for (const listener of listeners) listener();
  });
  for (const tool of options.tools ?? []) tools.add(tool);

  const info: Implementation = { name: options.name, version: options.version };
  for (const key of ['title', 'description', 'websiteUrl', 'icons'] as const) {
    if (options[key] !== undefined) Object.assign(info, { [key]: options[key] });
  }
  const core: ServerCore = {
    info,
    instructions: options.instructions,
    capabilities: { tools: { listChanged: true }, logging: {} },
    tools,
    pageSize,
    elicitationUnavailable: options.whenElicitationUnavailable ?? 'fail',
    report: options.onServerError ?? reportToStderr,
    onToolsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const sessions = new Set<LegacySession>();

  return {
    info,
    addTool: (tool) => tools.add(tool),
    removeTool: (name) => tools.remove(name),
    setToolEnabled: (name, enabled) => tools.setEnabled(name, enabled),
    toolNames: () => tools.names(),
    async connect(transport) {
      const session = new LegacySession(core, transport);
      sessions.add(session);
      void session.closed.then(() => sessions.delete(session));
      await session.start();
      return session;
    },
    async close() {
      await Promise.all([...sessions].map((session) => session.close()));
    },
  };
}
