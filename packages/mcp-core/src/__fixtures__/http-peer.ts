import { request } from 'node:http';

/** Raw HTTP helpers for tests: what a client sends, and what it gets back, byte for byte. */

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json(): unknown;
}

export interface SseEvent {
  id?: string;
  retry?: number;
  data: string;
}

export const jsonAndSse = 'application/json, text/event-stream';

export async function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<RawResponse> {
  const body =
    init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  const headers: Record<string, string> = { ...init.headers };
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  const request: RequestInit = { method: init.method ?? (body === undefined ? 'GET' : 'POST'), headers };
  if (body !== undefined) request.body = body;
  const response = await fetch(url, request);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}

export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const event: SseEvent = { data: '' };
      for (const line of block.split('\n')) {
        const colon = line.indexOf(':');
        const field = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^ /, '');
        if (field === 'id') event.id = value;
        else if (field === 'retry') event.retry = Number(value);
        else if (field === 'data') event.data += value;
      }
      return event;
    });
}

export function initializeBody(
  protocolVersion = '2025-11-25',
  capabilities: Record<string, unknown> = {},
): Record<string, unknown> {
  const clientInfo = { name: 'raw-http', version: '1.0.0' };
  return { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities, clientInfo } };
}

/** Initializes a session the way a client must, and returns the headers that later requests carry. */
export async function openSession(
  url: string,
  protocolVersion = '2025-11-25',
  capabilities: Record<string, unknown> = {},
): Promise<Record<string, string>> {
  const response = await send(url, {
    headers: { accept: jsonAndSse },
    body: initializeBody(protocolVersion, capabilities),
  });
  const sessionId = response.headers.get('mcp-session-id');
  if (response.status !== 200 || sessionId === null)
    throw new Error(`initialize failed: ${response.status} ${response.text}`);
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': protocolVersion, accept: jsonAndSse };
  await send(url, { headers, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
  return headers;
}

/** fetch cannot set Host; a DNS-rebinding attack can. node:http sends what it is told. */
export function sendWithHost(
  url: string,
  host: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: 'POST', headers: { ...headers, host, 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            if (typeof value === 'string') responseHeaders.set(name, value);
          resolve({ status: res.statusCode ?? 0, headers: responseHeaders, text, json: () => JSON.parse(text) });
        });
      },
    );
    outgoing.once('error', reject);
    outgoing.end(JSON.stringify(body));
  });
}
