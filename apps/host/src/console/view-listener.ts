import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ViewMounts } from './view-mounts.ts';
import { viewPolicy } from './view-policy.ts';

// Taken with getBuiltinModule: imported as an ES module, node:http builds a facade of every export at start.
const { createServer } = process.getBuiltinModule('node:http');

export interface ViewListenerOptions {
  mounts: ViewMounts;
  listenHost: string;
  /** Why a Host header is refused, or undefined: the console's own check, against DNS rebinding. */
  checkHost(host: string | undefined): string | undefined;
}

export interface ViewListener {
  /** The port views are served from: another origin than the console's. */
  readonly port: number;
  close(): Promise<void>;
}

const plainHeaders = {
  'content-type': 'text/plain; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};

/**
 * The second listener of the console: it serves each mounted view's document
 * at `/views/<token>` from another port, so a view is another origin than the
 * console even before the frame's sandbox makes it opaque. Each document is
 * served with the policy built from what its view declares and
 * `frame-ancestors` naming the console; the listener reads no cookie and
 * answers nothing else.
 */
export async function listenForViews(options: ViewListenerOptions): Promise<ViewListener> {
  const { mounts } = options;
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const refusal = options.checkHost(request.headers.host);
    if (refusal !== undefined) {
      response.writeHead(403, plainHeaders).end(`Forbidden: ${refusal}`);
      return;
    }
    const match = /^\/views\/([A-Za-z0-9_-]{32})$/.exec(request.url ?? '');
    const mount = match === null || request.method !== 'GET' ? undefined : mounts.byDocumentToken(match[1] ?? '');
    if (mount === undefined) {
      response.writeHead(404, plainHeaders).end('No view here: reload the console page that showed it.');
      return;
    }
    const body = Buffer.from(mount.view.html, 'utf8');
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(body.length),
      'content-security-policy': viewPolicy(mount.view.policy, mount.consoleOrigin),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    });
    response.end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.listenHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
