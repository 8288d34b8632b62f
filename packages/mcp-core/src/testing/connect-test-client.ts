import type { Root } from '../protocol/mcp-types.ts';
import type { McpServer } from '../server/create-mcp-server.ts';
import type { HttpAuthOptions } from '../transports/http/auth/http-auth-options.ts';
import { serveHttp } from '../transports/http/serve-http.ts';
import { createInMemoryTransportPair } from '../transports/in-memory-transport.ts';
import { type ClientTransportLike, type MessageRecording, recordMessages } from './message-recorder.ts';
import { spawnHttpServer } from './spawn-http-server.ts';

/**
 * The official clients a server is tested with: the SDK v1 (`@modelcontextprotocol/sdk`,
 * 2025 era only), and the SDK v2 (`@modelcontextprotocol/client`) pinned to the
 * 2025 era (`v2-legacy`) or to 2026-07-28 (`v2-modern`).
 */
export type TestClientKind = 'v1' | 'v2-legacy' | 'v2-modern';
export type TestTransportKind = 'memory' | 'stdio' | 'http';

/** What to connect to: a server object (in memory, or served over HTTP in this process), a bin, or a running endpoint. */
export type TestTarget =
  | { server: McpServer }
  | {
      /** The bin's script and arguments, run with this Node; `--http 127.0.0.1:0` is added for HTTP. */
      bin: readonly string[];
      env?: NodeJS.ProcessEnv;
      cwd?: string;
    }
  /** A server already running, reached over Streamable HTTP at this endpoint. */
  | { url: string | URL };

export interface TestClientOptions {
  client: TestClientKind;
  transport: TestTransportKind;
  /** Answers `elicitation/create`; declaring it declares the form elicitation capability. */
  onElicit?: (params: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** Answers `sampling/createMessage`; declaring it declares sampling. */
  onSample?: (params: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** The client's roots; giving them declares the roots capability. */
  roots?: Root[];
  /** HTTP to a server object: the endpoint's auth (JWT with `startTokenIssuer`, say). */
  httpAuth?: HttpAuthOptions;
  /** HTTP: sent as `Authorization: Bearer …` on every request. */
  bearerToken?: string;
  /** Declares the tasks extension (`io.modelcontextprotocol/tasks`): calls may then answer with a task. */
  tasks?: boolean;
  /** Declares the MCP Apps extension (`io.modelcontextprotocol/ui`): the client renders views. */
  ui?: boolean;
}

export interface TestCallResult {
  content: { type: string; text?: string; [key: string]: unknown }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

export interface TestClient {
  readonly kind: TestClientKind;
  readonly transport: TestTransportKind;
  /** The protocol version the connection speaks, as the client settled it. */
  readonly protocolVersion: string | undefined;
  /** Every message both ways, for schema checks (`recording.specViolations()`). */
  readonly recording: MessageRecording;
  listTools(): Promise<{ name: string; description?: string; inputSchema: Record<string, unknown> }[]>;
  /**
   * 2026 era (`v2-modern`): a request the SDK has no call for — a `tools/call`
   * that may answer with a task, `tasks/get`, `tasks/update`, `tasks/cancel` —
   * sent on the client's own transport with the era's `_meta`. Resolves the
   * result; rejects with a JsonRpcFailure carrying the error.
   */
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  callTool(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<TestCallResult>;
  /**
   * Everything wrong with the conversation so far, empty when it is right: the
   * version is not the one this client kind speaks with a dual-era server, a
   * 2026-era connection sent `initialize`, or a server message breaks the schema.
   */
  protocolProblems(): string[];
  /** The SDK client itself, for what this interface does not cover. */
  readonly sdk: unknown;
  close(): Promise<void>;
}

interface SdkClient {
  connect(transport: ClientTransportLike): Promise<void>;
  listTools(params?: unknown, options?: unknown): Promise<{ tools: never[] }>;
  callTool(params: unknown, schema?: unknown, options?: unknown): Promise<unknown>;
  close(): Promise<void>;
  getNegotiatedProtocolVersion?(): string | undefined;
}

const info = { name: 'toolshed-test-client', version: '1.0.0' };

/** A JSON-RPC error a request of the test's own was answered with. */
export class JsonRpcFailure extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(error: { code: number; message: string; data?: unknown }) {
    super(error.message);
    this.code = error.code;
    this.data = error.data;
  }
}

function capabilitiesFor(options: TestClientOptions): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  const extensions: Record<string, unknown> = {};
  if (options.tasks === true) extensions['io.modelcontextprotocol/tasks'] = {};
  if (options.ui === true) extensions['io.modelcontextprotocol/ui'] = { mimeTypes: ['text/html;profile=mcp-app'] };
  if (Object.keys(extensions).length > 0) capabilities.extensions = extensions;
  if (options.onElicit !== undefined) capabilities.elicitation = { form: {} };
  if (options.onSample !== undefined) capabilities.sampling = {};
  if (options.roots !== undefined) capabilities.roots = { listChanged: false };
  return capabilities;
}

async function createSdkClient(options: TestClientOptions): Promise<SdkClient> {
  const capabilities = capabilitiesFor(options);
  if (options.client === 'v1') {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const types = await import('@modelcontextprotocol/sdk/types.js');
    const client = new Client(info, { capabilities });
    const { onElicit, onSample, roots } = options;
    if (onElicit !== undefined)
      client.setRequestHandler(types.ElicitRequestSchema, (request) => onElicit(request.params) as never);
    if (onSample !== undefined) {
      client.setRequestHandler(types.CreateMessageRequestSchema, (request) => onSample(request.params) as never);
    }
    if (roots !== undefined) client.setRequestHandler(types.ListRootsRequestSchema, () => ({ roots }));
    return client as unknown as SdkClient;
  }
  const { Client } = await import('@modelcontextprotocol/client');
  const mode = options.client === 'v2-modern' ? { pin: '2026-07-28' } : 'legacy';
  const client = new Client(info, { capabilities, versionNegotiation: { mode } } as never);
  const handle = client.setRequestHandler.bind(client) as unknown as (
    method: string,
    handler: (request: never) => unknown,
  ) => void;
  const { onElicit, onSample, roots } = options;
  if (onElicit !== undefined)
    handle('elicitation/create', (request: { params: Record<string, unknown> }) => onElicit(request.params));
  if (onSample !== undefined) {
    handle('sampling/createMessage', (request: { params: Record<string, unknown> }) => onSample(request.params));
  }
  if (roots !== undefined) handle('roots/list', () => ({ roots }));
  return client as unknown as SdkClient;
}

async function stdioTransport(kind: TestClientKind, target: Extract<TestTarget, { bin: unknown }>) {
  const parameters = {
    command: process.execPath,
    args: [...target.bin],
    env: { ...(target.env ?? process.env) } as Record<string, string>,
    stderr: 'pipe' as const,
    ...(target.cwd === undefined ? {} : { cwd: target.cwd }),
  };
  if (kind === 'v1') {
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    return new StdioClientTransport(parameters) as unknown as ClientTransportLike;
  }
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  return new StdioClientTransport(parameters) as unknown as ClientTransportLike;
}

async function httpTransport(kind: TestClientKind, url: URL, bearerToken?: string): Promise<ClientTransportLike> {
  const options =
    bearerToken === undefined ? {} : { requestInit: { headers: { authorization: `Bearer ${bearerToken}` } } };
  if (kind === 'v1') {
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    return new StreamableHTTPClientTransport(url, options) as unknown as ClientTransportLike;
  }
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  return new StreamableHTTPClientTransport(url, options) as unknown as ClientTransportLike;
}

/**
 * Connects an official SDK client to a server the way its users will: in
 * memory, over stdio to the bin, or over Streamable HTTP (the server object
 * served in this process on 127.0.0.1, or the bin with `--http`). Every
 * message is recorded so the test can check it against the official schema
 * of the version the connection speaks.
 *
 * @example
 * const client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
 * expect((await client.callTool('echo', { text: 'hi' })).isError).toBeFalsy();
 * expect(client.recording.specViolations()).toEqual([]);
 * await client.close();
 */
export async function connectTestClient(target: TestTarget, options: TestClientOptions): Promise<TestClient> {
  const sdk = await createSdkClient(options);
  const cleanup: (() => Promise<unknown>)[] = [];
  let inner: ClientTransportLike;
  if (options.transport === 'memory') {
    if (!('server' in target)) throw new Error('An in-memory connection needs a server object');
    const [clientSide, serverSide] = createInMemoryTransportPair();
    const connection = await target.server.connect(serverSide);
    cleanup.push(() => connection.close());
    inner = clientSide as unknown as ClientTransportLike;
  } else if (options.transport === 'stdio') {
    if (!('bin' in target)) throw new Error('A stdio connection needs a bin');
    inner = await stdioTransport(options.client, target);
  } else if ('url' in target) {
    inner = await httpTransport(options.client, new URL(target.url), options.bearerToken);
  } else if ('server' in target) {
    const http = await serveHttp(target.server, {
      host: '127.0.0.1',
      port: 0,
      ...(options.httpAuth === undefined ? {} : { auth: options.httpAuth }),
    });
    cleanup.push(() => http.close());
    inner = await httpTransport(options.client, new URL(http.url), options.bearerToken);
  } else {
    const spawned = await spawnHttpServer([...target.bin, '--http', '127.0.0.1:0'], {
      ...(target.env === undefined ? {} : { env: target.env }),
    });
    cleanup.push(() => spawned.stop());
    inner = await httpTransport(options.client, spawned.url, options.bearerToken);
  }
  const recording = recordMessages(inner);
  let sideRequests = 0;
  try {
    await sdk.connect(recording.transport);
  } catch (error) {
    for (const step of cleanup.reverse()) await step().catch(() => {});
    throw error;
  }
  const negotiatedVersion = () => sdk.getNegotiatedProtocolVersion?.() ?? recording.protocolVersion;
  return {
    kind: options.client,
    transport: options.transport,
    get protocolVersion() {
      return negotiatedVersion();
    },
    recording,
    sdk,
    protocolProblems() {
      const problems: string[] = [];
      const version = negotiatedVersion();
      const expected = expectedProtocolVersion(options.client);
      if (version !== expected) problems.push(`speaks ${version}, expected ${expected}`);
      const initialized = recording.messages.some(
        (entry) => (entry.message as { method?: unknown }).method === 'initialize',
      );
      if (initialized && options.client === 'v2-modern') problems.push('a 2026-era connection sent initialize');
      return [...problems, ...recording.specViolations()];
    },
    async listTools() {
      return (await sdk.listTools()).tools;
    },
    async request(method, params = {}) {
      if (options.client !== 'v2-modern') throw new Error('request() speaks the 2026 era: connect a v2-modern client');
      sideRequests += 1;
      const envelope = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': info,
        'io.modelcontextprotocol/clientCapabilities': capabilitiesFor(options),
      };
      const meta = { ...envelope, ...(params._meta as Record<string, unknown> | undefined) };
      const response = (await recording.exchange({
        id: `side-${sideRequests}`,
        method,
        params: { ...params, _meta: meta },
      })) as { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
      if (response.error !== undefined) throw new JsonRpcFailure(response.error);
      return response.result ?? {};
    },
    async callTool(name, args = {}, callOptions = {}) {
      const params = { name, arguments: args };
      // SDK v1 takes a result schema before the options; SDK v2 takes the options second.
      const answer =
        options.client === 'v1' ? sdk.callTool(params, undefined, callOptions) : sdk.callTool(params, callOptions);
      return (await answer) as TestCallResult;
    },
    async close() {
      await sdk.close();
      for (const step of cleanup.reverse()) await step().catch(() => {});
    },
  };
}

/** Every official client kind a server is tested with. */
export const testClientKinds: readonly TestClientKind[] = ['v1', 'v2-legacy', 'v2-modern'];

/** Every way a bin is reached: each client kind over stdio and over HTTP, for `it.each`. */
export const binTestCases: readonly (readonly [TestClientKind, 'stdio' | 'http'])[] = testClientKinds.flatMap(
  (client) => (['stdio', 'http'] as const).map((transport) => [client, transport] as const),
);

/** The version a client kind's connection speaks with a dual-era server. */
export function expectedProtocolVersion(kind: TestClientKind): string {
  return kind === 'v2-modern' ? '2026-07-28' : '2025-11-25';
}
