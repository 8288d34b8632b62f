import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthInfo } from '../../engine/call-context.ts';
import { headerMismatch, unsupportedProtocolVersion } from '../../errors/common-protocol-errors.ts';
import { ProtocolError } from '../../errors/protocol-error.ts';
import { classifyMessage } from '../../messages/classify-message.ts';
import { JsonRpcErrorCode } from '../../messages/jsonrpc-error-code.ts';
import type { JsonRpcRequest, JsonRpcResponse } from '../../messages/jsonrpc-message.ts';
import { requireMetaFields } from '../../modern/request-meta.ts';
import { isModernProtocolVersion } from '../../protocol/protocol-version.ts';
import type { McpServer } from '../../server/create-mcp-server.ts';
import { writeJsonMessage, writeJsonRpcError } from './http-error.ts';
import type { HttpServeOptions } from './http-options.ts';
import { acceptsOf, decodeMirroredHeader, headerValue } from './http-request-headers.ts';
import { mcpNameParams } from './mcp-name-params.ts';
import { relayedHeader, relayRequest } from './request-relay.ts';
import { SseConnection } from './sse-connection.ts';

/** The HTTP status the 2026 revision gives each JSON-RPC error; the rest travel as 200. */
function statusFor(response: JsonRpcResponse): number {
  if (!('error' in response)) return 200;
  switch (response.error.code) {
    case JsonRpcErrorCode.MethodNotFound:
      return 404;
    case JsonRpcErrorCode.InvalidRequest:
    case JsonRpcErrorCode.ParseError:
    case JsonRpcErrorCode.HeaderMismatch:
    case JsonRpcErrorCode.MissingRequiredClientCapability:
    case JsonRpcErrorCode.UnsupportedProtocolVersion:
      return 400;
    default:
      return 200;
  }
}

/**
 * Checks what the 2026 revision requires before a request is dispatched, in
 * its order: the `_meta` fields (-32602), the headers that mirror the body
 * (-32020), then the version (-32022). Intermediaries route on those headers,
 * so a body that says otherwise is refused rather than believed.
 */
function checkRequest(request: IncomingMessage, message: JsonRpcRequest): void {
  const params = message.params ?? {};
  const version = requireMetaFields(params);
  const versionHeader = headerValue(request, 'mcp-protocol-version');
  if (versionHeader === undefined) throw headerMismatch('the MCP-Protocol-Version header is required');
  if (versionHeader !== version) {
    throw headerMismatch(
      `MCP-Protocol-Version header ${JSON.stringify(versionHeader.slice(0, 40))} does not match _meta version ${JSON.stringify(version.slice(0, 40))}`,
    );
  }
  const methodHeader = headerValue(request, 'mcp-method');
  if (methodHeader === undefined) throw headerMismatch('the Mcp-Method header is required');
  if (methodHeader !== message.method) throw headerMismatch('the Mcp-Method header does not match the body method');
  const target = mcpNameParams[message.method];
  if (target !== undefined) {
    const nameHeader = headerValue(request, 'mcp-name');
    if (nameHeader === undefined) throw headerMismatch(`the Mcp-Name header is required for ${message.method}`);
    if (decodeMirroredHeader(nameHeader) !== params[target]) {
      throw headerMismatch(`the Mcp-Name header does not match params.${target}`);
    }
  }
  if (!isModernProtocolVersion(version)) throw unsupportedProtocolVersion(version);
}

/** The open responses of 2026-era requests, each told when a keep-alive interval passes. */
export type ModernStreams = Set<{ keepAlive(): void }>;

/**
 * Serves one POST of the 2026 era: one request, answered on its own response.
 * The answer is a JSON body unless something must be streamed first
 * (progress, logs, a subscription), in which case the response becomes an
 * SSE stream; so errors keep the HTTP status the revision gives them, and a
 * large answer is not one oversized SSE event (clients cap those). A call
 * quiet for a whole keep-alive interval becomes a stream too, so proxies
 * that cut silent connections see its keep-alive comments.
 * Closing the response cancels the request.
 */
export async function serveModernPost(
  mcpServer: McpServer,
  request: IncomingMessage,
  response: ServerResponse,
  payload: unknown,
  auth: AuthInfo | undefined,
  headers: Record<string, string>,
  streams: ModernStreams,
  ending: AbortSignal,
  relay?: HttpServeOptions['relay'],
): Promise<void> {
  const fail = (status: number, id: JsonRpcRequest['id'] | null, code: number, message: string, data?: unknown) =>
    writeJsonRpcError(response, status, code, message, headers, id, data);
  if (Array.isArray(payload)) {
    fail(400, null, JsonRpcErrorCode.InvalidRequest, 'Invalid request: batches are not accepted');
    return;
  }
  const classified = classifyMessage(payload);
  if (classified.kind === 'invalid') {
    fail(400, classified.id, classified.error.code, classified.error.message);
    return;
  }
  if (classified.kind === 'notification') {
    // No client notification means anything over HTTP in this era; cancellation is closing the stream.
    response.writeHead(202, headers).end();
    return;
  }
  if (classified.kind === 'response') {
    fail(
      400,
      classified.message.id,
      JsonRpcErrorCode.InvalidRequest,
      'Invalid request: this era sends clients no requests to answer',
    );
    return;
  }
  const message = classified.message;
  try {
    checkRequest(request, message);
  } catch (error) {
    if (!ProtocolError.isInstance(error)) throw error;
    fail(400, message.id, error.code, error.message, error.data);
    return;
  }
  const accepts = acceptsOf(request);
  if (!accepts.json && !accepts.sse) {
    fail(
      406,
      message.id,
      JsonRpcErrorCode.InvalidRequest,
      'Not Acceptable: accept application/json or text/event-stream',
    );
    return;
  }

  if (relay !== undefined && request.headers[relayedHeader] === undefined) {
    // A relay that cannot tell (its store is down) answers here: the call then fails there clearly.
    const target = await relay(message, auth).catch(() => undefined);
    if (target !== undefined) {
      const closed = new AbortController();
      response.once('close', () => closed.abort());
      await relayRequest(request, response, message, target, headers, closed.signal);
      return;
    }
  }
  const gone = new AbortController();
  let stream: SseConnection | undefined;
  const openStream = (): SseConnection => {
    stream ??= new SseConnection(response, headers);
    return stream;
  };
  let heldThroughTick = false;
  const keeper = {
    keepAlive(): void {
      if (stream === undefined && response.headersSent) return;
      if (stream === undefined && (!accepts.sse || !heldThroughTick)) {
        heldThroughTick = true;
        return;
      }
      openStream().keepAlive();
    },
  };
  streams.add(keeper);
  response.once('close', () => {
    if (!response.writableFinished) gone.abort(new Error('The client closed the response stream'));
    streams.delete(keeper);
  });
  const answer = await mcpServer.answer(message, {
    signal: gone.signal,
    auth,
    ending,
    networkTransport: 'tcp',
    notify(notification) {
      // A client that takes only JSON gets the answer without what would have streamed before it.
      if (accepts.sse && !gone.signal.aborted) openStream().message(JSON.stringify(notification));
    },
  });
  if (gone.signal.aborted || response.writableEnded) return;
  if (answer === undefined) {
    stream?.end();
    if (stream === undefined) response.writeHead(204, headers).end();
    return;
  }
  if (stream !== undefined || !accepts.json) {
    const sse = openStream();
    sse.message(JSON.stringify(answer));
    sse.end();
    return;
  }
  writeJsonMessage(response, statusFor(answer), answer, headers);
}
