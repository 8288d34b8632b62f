import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createOutboundFetcher, type OutboundFetcher } from './outbound-fetch.ts';
import { type DnsServer, startDnsServer } from './testing/dns-server.ts';

type Route = (request: IncomingMessage, response: ServerResponse) => void;

describe('createOutboundFetcher', () => {
  let server: Server;
  let port: number;
  let dns: DnsServer;
  let fetcher: OutboundFetcher;
  const hits: string[] = [];
  const routes: Record<string, Route> = {
    '/image': (_request, response) => {
      response.setHeader('content-type', 'image/png');
      response.end(Buffer.alloc(100, 7));
    },
    '/redirect-once': (_request, response) => {
      response.writeHead(302, { location: '/image' });
      response.end();
    },
    '/loop': (_request, response) => {
      response.writeHead(302, { location: '/loop' });
      response.end();
    },
    '/no-location': (_request, response) => {
      response.writeHead(301);
      response.end();
    },
    '/missing': (_request, response) => {
      response.writeHead(404);
      response.end('no');
    },
    '/declared-large': (_request, response) => {
      response.setHeader('content-length', String(10_000));
      response.end(Buffer.alloc(10_000));
    },
    '/streamed-large': (_request, response) => {
      response.write(Buffer.alloc(600));
      response.write(Buffer.alloc(600));
      response.end();
    },
    '/slow': () => {},
    '/busy': (_request, response) => {
      response.writeHead(503, { 'retry-after': '7', 'content-type': 'application/json' });
      response.end('{"reason":"maintenance"}');
    },
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      hits.push(`${request.headers.host?.split(':')[0]}${path}`);
      const route = routes[path];
      if (route !== undefined) {
        route(request, response);
        return;
      }
      // /to?url=… redirects wherever the test says.
      const target = new URL(request.url ?? '/', 'http://x').searchParams.get('url');
      response.writeHead(302, { location: target ?? '/' });
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    dns = await startDnsServer({
      'images.test': { a: ['127.0.0.1'] },
      'evil.test': { a: ['127.0.0.1'] },
      'metadata.test': { a: ['169.254.169.254'] },
    });
    fetcher = createOutboundFetcher({
      maxBytes: 1_000,
      timeoutMs: 1_500,
      dnsServers: [dns.server],
      trustedHosts: ['images.test'],
      userAgent: 'toolshed-test',
    });
  });

  beforeEach(() => {
    hits.length = 0;
  });

  afterAll(async () => {
    await fetcher.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await dns.close();
  });

  const trusted = (path: string) => `http://images.test:${port}${path}`;

  it('fetches from a trusted host, with its content type', async () => {
    const response = await fetcher.fetch(trusted('/image'));
    expect(response.body).toEqual(Buffer.alloc(100, 7));
    expect(response.contentType).toBe('image/png');
    expect(response.redirects).toBe(0);
  });

  it('follows a redirect on the same host', async () => {
    const response = await fetcher.fetch(trusted('/redirect-once'));
    expect(response.url.pathname).toBe('/image');
    expect(response.redirects).toBe(1);
  });

  it.each([
    [
      'an untrusted name resolving to loopback',
      () => `http://evil.test:${port}/image`,
      /evil\.test resolves to 127\.0\.0\.1, a loopback/,
    ],
    ['a loopback literal', () => `http://127.0.0.1:${port}/image`, /127\.0\.0\.1:\d+ is a loopback address/],
    ['a decimal loopback literal', () => `http://2130706433:${port}/image`, /loopback/],
    [
      'a name resolving to cloud metadata',
      () => `http://metadata.test:${port}/`,
      /169\.254\.169\.254, a cloud metadata/,
    ],
    ['a file URL', () => 'file:///etc/passwd', /file: scheme/],
  ])('refuses %s before connecting', async (_name, url, message) => {
    await expect(fetcher.fetch(url())).rejects.toThrow(message);
    expect(hits).toEqual([]);
  });

  it.each([
    ['a loopback literal', () => `http://127.0.0.1:${port}/image`, /is a loopback address/],
    ['an untrusted name resolving to loopback', () => `http://evil.test:${port}/image`, /evil\.test resolves to/],
    ['a metadata address', () => 'http://169.254.169.254/latest/meta-data/', /cloud metadata/],
    ['a file URL', () => 'file:///etc/passwd', /file: scheme/],
    ['a gopher URL', () => 'gopher://127.0.0.1:6379/_INFO', /gopher: scheme/],
  ])('re-checks a redirect to %s', async (_name, target, message) => {
    await expect(fetcher.fetch(trusted(`/to?url=${encodeURIComponent(target())}`))).rejects.toThrow(message);
    expect(hits).toEqual(['images.test/to']);
  });

  it('stops after the redirect cap', async () => {
    await expect(fetcher.fetch(trusted('/loop'))).rejects.toThrow(/redirected more than 3 times/);
    expect(hits).toHaveLength(4);
  });

  it.each([
    ['/no-location', /answered 301 without a Location/],
    ['/missing', /answered HTTP 404/],
    ['/declared-large', /larger than 1000 bytes/],
    ['/streamed-large', /larger than 1000 bytes/],
    ['/slow', /took longer than 1500 ms/],
  ])('refuses %s clearly', async (path, message) => {
    await expect(fetcher.fetch(trusted(path))).rejects.toThrow(message);
  });

  it('says when a name does not resolve or nothing listens', async () => {
    await expect(fetcher.fetch('http://nowhere.test/')).rejects.toThrow(/nowhere\.test does not resolve/);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const direct = createOutboundFetcher({ maxBytes: 10, timeoutMs: 1_000, trustedHosts: ['127.0.0.1'] });
    await expect(direct.fetch(`http://127.0.0.1:${closedPort}/`)).rejects.toThrow(/connection was refused/);
    await direct.close();
  });

  it('stops when the caller cancels', async () => {
    const controller = new AbortController();
    const pending = fetcher.fetch(trusted('/slow'), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by caller')), 100);
    await expect(pending).rejects.toThrow('cancelled by caller');
  });

  describe("for the operator's own URLs", () => {
    let operator: OutboundFetcher;
    beforeAll(() => {
      operator = createOutboundFetcher({ trust: 'operator', maxBytes: 1_000, timeoutMs: 1_500, maxConnections: 2 });
    });
    afterAll(() => operator.close());
    const local = (path: string) => `http://127.0.0.1:${port}${path}`;

    it("fetches a configured URL on this machine, which a model's URL may never reach", async () => {
      expect((await operator.fetch(local('/image'))).body).toEqual(Buffer.alloc(100, 7));
      await expect(fetcher.fetch(local('/image'))).rejects.toThrow(/loopback/);
    });

    it('follows redirects on the same origin only', async () => {
      expect((await operator.fetch(local('/redirect-once'))).url.pathname).toBe('/image');
      const elsewhere = operator.fetch(local(`/to?url=${encodeURIComponent(trusted('/image'))}`));
      await expect(elsewhere).rejects.toThrow(/redirected to another origin, which is not followed/);
      await expect(elsewhere).rejects.toMatchObject({ failure: 'redirect', status: 302 });
    });

    it('answers a non-2xx status with its headers and reason when asked, and fails with it otherwise', async () => {
      const busy = await operator.fetch(local('/busy'), { anyStatus: true, accept: 'application/json' });
      expect(busy.status).toBe(503);
      expect(busy.headers['retry-after']).toBe('7');
      expect(JSON.parse(busy.body.toString())).toEqual({ reason: 'maintenance' });
      await expect(operator.fetch(local('/busy'))).rejects.toMatchObject({ failure: 'status', status: 503 });
    });

    it('names the failure, for a caller that retries', async () => {
      await expect(operator.fetch(local('/streamed-large'))).rejects.toMatchObject({ failure: 'too_large' });
      const refused = createOutboundFetcher({ trust: 'operator', maxBytes: 10, timeoutMs: 1_000 });
      await expect(refused.fetch(`http://127.0.0.1:${await closedPortNumber()}/`)).rejects.toMatchObject({
        failure: 'network',
        code: 'ECONNREFUSED',
      });
      await refused.close();
    });
  });
});

describe('through a proxy', () => {
  let target: Server;
  let proxyServer: Server;
  let targetUrl: string;
  let proxyUrl: string;
  const proxied: string[] = [];

  beforeAll(async () => {
    target = createServer((_request, response) => response.end('through'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/thing`;
    // A recording proxy that tunnels CONNECT, as undici asks a proxy for every URL.
    proxyServer = createServer((_request, response) => response.writeHead(405).end());
    proxyServer.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
      proxied.push(request.url ?? '');
      const [host = '', port = '80'] = (request.url ?? '').split(':');
      const upstream = connect(Number(port), host, () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client).pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxyServer.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxyServer.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    target.closeAllConnections();
    proxyServer.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
    await new Promise((resolve) => proxyServer.close(resolve));
  });

  beforeEach(() => {
    proxied.length = 0;
  });

  it('sends requests through the proxy the environment names', async () => {
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
    process.env.HTTP_PROXY = proxyUrl;
    delete process.env.NO_PROXY;
    const fetcher = createOutboundFetcher({ trust: 'operator', maxBytes: 1000, timeoutMs: 2000 });
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    try {
      expect((await fetcher.fetch(targetUrl)).body.toString()).toBe('through');
      expect(proxied).toEqual([new URL(targetUrl).host]);
    } finally {
      await fetcher.close();
    }
  });

  it('reaches NO_PROXY hosts directly, and ignores the environment when told', async () => {
    const bypassing = createOutboundFetcher({
      trust: 'operator',
      maxBytes: 1000,
      timeoutMs: 2000,
      proxy: { httpProxy: proxyUrl, noProxy: '127.0.0.1' },
    });
    const direct = createOutboundFetcher({ trust: 'operator', maxBytes: 1000, timeoutMs: 2000, proxy: 'none' });
    try {
      expect((await bypassing.fetch(targetUrl)).body.toString()).toBe('through');
      expect((await direct.fetch(targetUrl)).body.toString()).toBe('through');
      expect(proxied).toEqual([]);
    } finally {
      await bypassing.close();
      await direct.close();
    }
  });

  it('ends at its deadline when the proxy never answers', async () => {
    const silent = createServer();
    const tunnels: Duplex[] = [];
    silent.on('connect', (_request: IncomingMessage, socket: Duplex) => tunnels.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const httpProxy = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const fetcher = createOutboundFetcher({ trust: 'operator', maxBytes: 1000, timeoutMs: 300, proxy: { httpProxy } });
    try {
      await expect(fetcher.fetch(targetUrl)).rejects.toMatchObject({ failure: 'timeout' });
    } finally {
      for (const socket of tunnels) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      void fetcher.close();
    }
  });

  it("still refuses a model's URL whose name resolves to a reserved address, before the proxy hears of it", async () => {
    const dns = await startDnsServer({ 'evil.test': { a: ['127.0.0.1'] } });
    const fetcher = createOutboundFetcher({
      maxBytes: 1000,
      timeoutMs: 2000,
      dnsServers: [dns.server],
      proxy: { httpProxy: proxyUrl },
    });
    try {
      await expect(fetcher.fetch('http://evil.test/thing')).rejects.toThrow(/evil\.test resolves to 127\.0\.0\.1/);
      expect(proxied).toEqual([]);
    } finally {
      await fetcher.close();
      await dns.close();
    }
  });
});

/** A port nothing listens on: bound, then released. */
async function closedPortNumber(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
