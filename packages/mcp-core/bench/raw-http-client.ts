import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  head: string;
  body: string;
}

/**
 * A keep-alive HTTP/1.1 client on one socket that does as little as it can:
 * writes the request bytes, parses the status line, Content-Length or
 * chunked framing, and nothing else. A load generator this light measures
 * the server, not itself (node:http's own client costs as much per request
 * as a fast server does).
 */
export class RawHttpClient {
  readonly #socket: Socket;
  readonly #host: string;
  readonly #path: string;
  #buffer: Buffer = Buffer.alloc(0);
  #waiting: { resolve(answer: RawAnswer): void; reject(error: Error): void } | undefined;

  private constructor(socket: Socket, url: URL) {
    this.#socket = socket;
    this.#host = url.host;
    this.#path = url.pathname;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
      this.#tryParse();
    });
    // A server that dies mid-run fails the bench instead of leaving it waiting forever.
    socket.on('close', () => this.#fail(new Error(`the connection to ${url.host} closed`)));
    socket.on('error', (error) => this.#fail(error));
  }

  static open(url: URL): Promise<RawHttpClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => resolve(new RawHttpClient(socket, url)));
      socket.once('error', reject);
    });
  }

  post(headers: Record<string, string>, body: string): Promise<RawAnswer> {
    // A caller's own accept header (say, SSE only) replaces the default.
    let head = `POST ${this.#path} HTTP/1.1\r\nhost: ${this.#host}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
    if (headers.accept === undefined) head += 'accept: application/json, text/event-stream\r\n';
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#socket.write(`${head}\r\n${body}`);
    });
  }

  close(): void {
    this.#waiting = undefined;
    this.#socket.destroy();
  }

  #fail(error: Error): void {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.reject(error);
  }

  #tryParse(): void {
    const buffer = this.#buffer;
    const headEnd = buffer.indexOf('\r\n\r\n');
    if (headEnd === -1) return;
    const head = buffer.toString('latin1', 0, headEnd);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let body: string;
    let consumed: number;
    if (length !== null) {
      consumed = headEnd + 4 + Number(length[1]);
      if (buffer.length < consumed) return;
      body = buffer.toString('utf8', headEnd + 4, consumed);
    } else if (/\r\ntransfer-encoding: *chunked/i.test(head)) {
      const parts: Buffer[] = [];
      let offset = headEnd + 4;
      for (;;) {
        const lineEnd = buffer.indexOf('\r\n', offset);
        if (lineEnd === -1) return;
        const size = Number.parseInt(buffer.toString('latin1', offset, lineEnd), 16);
        if (buffer.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          consumed = lineEnd + 4;
          break;
        }
        parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        offset = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts).toString('utf8');
    } else {
      consumed = headEnd + 4;
      body = '';
    }
    this.#buffer = buffer.subarray(consumed);
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.resolve({ status, head, body });
  }
}
