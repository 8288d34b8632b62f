/**
 * An HTTP upstream answered a POST with an error status and a body that is
 * no JSON-RPC error. The status is kept apart from the message because the
 * era probe reads it: a 4xx from a server that does not know the modern
 * era means "speak legacy", a 401 or a 5xx does not.
 */
export class HttpStatusError extends Error {
  readonly status: number;
  readonly body: string;

  constructor(url: string, status: number, body: string) {
    super(`${url} answered HTTP ${status}${body === '' ? '' : `: ${body.slice(0, 300)}`}`);
    this.name = 'HttpStatusError';
    this.status = status;
    this.body = body;
  }
}
