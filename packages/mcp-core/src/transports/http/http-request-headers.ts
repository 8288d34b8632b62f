import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a request's Accept header allows for the answer. */
export interface Accepts {
  json: boolean;
  sse: boolean;
}

export function acceptsOf(request: IncomingMessage): Accepts {
  const accept = (request.headers.accept ?? '').toLowerCase();
  const any = accept === '' || accept.includes('*/*') || accept.includes('application/*');
  return { json: accept.includes('application/json') || any, sse: accept.includes('text/event-stream') };
}

export function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** CORS for browser clients: the origin was already checked against the allow-list. */
export function corsHeaders(request: IncomingMessage): Record<string, string> {
  const origin = headerValue(request, 'origin');
  if (origin === undefined) return {};
  return { 'access-control-allow-origin': origin, 'access-control-expose-headers': 'mcp-session-id', vary: 'origin' };
}

export function answerPreflight(request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(204, {
    ...corsHeaders(request),
    'access-control-allow-methods': 'GET, POST, DELETE',
    'access-control-allow-headers':
      'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, mcp-method, mcp-name, last-event-id',
    'access-control-max-age': '600',
  });
  response.end();
}

const base64Sentinel = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/;

/** A mirrored header value as the body would hold it: `=?base64?…?=` values are decoded (SEP-2243). */
export function decodeMirroredHeader(value: string): string {
  const encoded = base64Sentinel.exec(value);
  return encoded === null ? value : Buffer.from(encoded[1] ?? '', 'base64').toString('utf8');
}
