import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ImageWebServer {
  port: number;
  /** Every request's host name and path, in order. */
  hits: string[];
  close(): Promise<void>;
}

/**
 * A web server on 127.0.0.1 for URL inputs: `/photo.png` is the image given,
 * `/secret` what an SSRF would steal, `/to?url=` redirects anywhere, `/huge`
 * declares more bytes than any cap, `/slow` never answers, `/page.html` is not
 * an image.
 */
export async function startImageWebServer(image: Buffer): Promise<ImageWebServer> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    hits.push(`${request.headers.host?.replace(/:\d+$/, '')}${url.pathname}`);
    switch (url.pathname) {
      case '/photo.png':
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(image);
        return;
      case '/secret':
        response.end('{"AccessKeyId":"AKIA-SECRET"}');
        return;
      case '/to':
        response.writeHead(302, { location: url.searchParams.get('url') ?? '/' });
        response.end();
        return;
      case '/huge':
        response.writeHead(200, { 'content-type': 'image/png', 'content-length': String(2 ** 40) });
        response.write(image);
        return;
      case '/slow':
        return;
      case '/page.html':
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end('<html><body>not an image</body></html>');
        return;
      default:
        response.writeHead(404);
        response.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
