import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureServer } from '../../__fixtures__/fixture-tools.ts';
import type { Readiness } from './http-options.ts';
import { type HttpServerHandle, serveHttp } from './serve-http.ts';

describe('health probes', () => {
  let http: HttpServerHandle;
  let state: Readiness = { ready: true };
  beforeAll(async () => {
    http = await serveHttp(createFixtureServer(), {
      auth: { tokens: [{ token: 'probe-test-token-0123456789', subject: 'ana' }] },
      readiness: async () => state,
    });
  });
  afterAll(async () => {
    await http.close();
  });
  const probe = (path: string, method = 'GET') => fetch(new URL(path, http.url), { method });

  it('answers /healthz 200 without credentials while the process serves', async () => {
    const response = await probe('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz 503 with the reason while not ready, and 200 once ready again', async () => {
    state = { ready: false, reason: 'the state store is not reachable' };
    let response = await probe('/readyz');
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'unavailable', reason: 'the state store is not reachable' });
    expect((await probe('/healthz')).status).toBe(200);
    state = { ready: true };
    response = await probe('/readyz');
    expect(response.status).toBe(200);
  });

  it('answers a readiness check that throws as not ready', async () => {
    const broken = await serveHttp(createFixtureServer(), {
      readiness: async () => {
        throw new Error('store down');
      },
    });
    const response = await fetch(new URL('/readyz', broken.url));
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ status: 'unavailable', reason: 'store down' });
    await broken.close();
  });

  it('refuses anything but GET and HEAD', async () => {
    expect((await probe('/healthz', 'POST')).status).toBe(405);
    expect((await probe('/readyz', 'HEAD')).status).toBe(200);
  });
});
