import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReadableStream } from 'node:stream/web';
import { JsonRpcErrorCode } from '../../messages/jsonrpc-error-code.ts';
import type { JsonRpcRequest } from '../../messages/jsonrpc-message.ts';
import { writeJsonRpcError } from './http-error.ts';

/** Marks a request one replica relayed to another: it is answered where it arrives, never relayed on. */
export const relayedHeader = 'toolshed-relayed';

/** What the replica answering a relayed request needs to see as the client sent it. */
const passedHeaders = ['authorization', 'content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name'];

/**
 * Relays one 2026-era request to the replica that is to answer it, and its
 * answer — JSON or an SSE stream, with its status — back to the client as
 * it comes. The client closing its response cancels the relayed one.
 */
export async function relayRequest(
  request: IncomingMessage,
  response: ServerResponse,
  message: JsonRpcRequest,
  target: string,
  headers: Record<string, string>,
  gone: AbortSignal,
): Promise<void> {
  const sent: Record<string, string> = { [relayedHeader]: '1' };
  for (const name of passedHeaders) {
    const value = request.headers[name];
    if (typeof value === 'string') sent[name] = value;
  }
  let answer: Response;
  try {
    answer = await fetch(target, {
      method: 'POST',
      headers: sent,
      body: JSON.stringify(message),
      signal: gone,
      redirect: 'manual',
    });
  } catch (error) {
    if (gone.aborted) return;
    const why = error instanceof Error ? error.message : String(error);
    writeJsonRpcError(
      response,
      200,
      JsonRpcErrorCode.InternalError,
      `The replica that holds this request could not be reached (${why}); try again shortly`,
      headers,
      message.id,
    );
    return;
  }
  response.writeHead(answer.status, {
    ...headers,
    'content-type': answer.headers.get('content-type') ?? 'application/json',
    'cache-control': 'no-cache',
  });
  if (answer.body === null) {
    response.end();
    return;
  }
  // Taken here, not imported: an ES module import of node:stream builds a facade of all its exports at every start.
  const { Readable } = process.getBuiltinModule('node:stream');
  const body = Readable.fromWeb(answer.body as ReadableStream<Uint8Array>);
  body.on('error', () => response.destroy());
  body.pipe(response);
  await new Promise<void>((resolve) => response.once('close', resolve));
}
