import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createRequestGuard } from './console-request-guard.ts';
import { listenForViews, type ViewListener } from './view-listener.ts';
import { type ViewMountInput, ViewMounts } from './view-mounts.ts';
import { viewPolicy } from './view-policy.ts';

const consoleOrigin = 'http://127.0.0.1:3100';

function viewInput(policy?: Record<string, unknown>): ViewMountInput {
  return {
    user: 'alice',
    server: 'sql',
    tool: 'sql_query',
    view: { uri: 'ui://toolshed-sql/query', html: '<!doctype html><p>view</p>', policy },
    toolInput: {},
    toolResult: undefined,
    consoleOrigin,
  };
}

describe('a view’s policy', () => {
  it('with nothing declared, lets nothing outside the document load or connect, and only the console frame it', () => {
    expect(viewPolicy(undefined, consoleOrigin)).toBe(
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src data:; " +
        "font-src 'none'; connect-src 'none'; frame-src 'none'; base-uri 'none'; form-action 'none'; object-src 'none'; " +
        `frame-ancestors ${consoleOrigin}`,
    );
  });

  it('widens only by the origins declared', () => {
    const policy = viewPolicy(
      {
        connectDomains: ['https://api.example.com', 'wss://live.example.com:8443'],
        resourceDomains: ['https://*.cdn.example.com'],
        frameDomains: ['https://embed.example.com'],
        baseUriDomains: ['https://example.com'],
      },
      consoleOrigin,
    );
    expect(policy).toContain('connect-src https://api.example.com wss://live.example.com:8443;');
    expect(policy).toContain("script-src 'unsafe-inline' https://*.cdn.example.com;");
    expect(policy).toContain('font-src https://*.cdn.example.com;');
    expect(policy).toContain('frame-src https://embed.example.com;');
    expect(policy).toContain('base-uri https://example.com;');
  });

  it.each([
    ['a keyword', "'unsafe-eval'"],
    ['a wildcard', '*'],
    ['another directive', 'https://a.example; script-src *'],
    ['a space', 'https://a.example https://b.example'],
    ['a path', 'https://a.example/path'],
    ['a scheme of its own', 'javascript:alert(1)'],
    ['data:', 'data:'],
    ['not a string', 42],
  ])('drops %s a server declares', (_, declared) => {
    const policy = viewPolicy({ connectDomains: [declared], resourceDomains: [declared] }, consoleOrigin);
    expect(policy).toContain("connect-src 'none';");
    expect(policy).toContain("script-src 'unsafe-inline';");
    expect(policy).not.toContain('unsafe-eval');
  });
});

describe('the view listener', () => {
  let listener: ViewListener | undefined;

  afterEach(async () => {
    await listener?.close();
    listener = undefined;
  });

  async function start(mounts: ViewMounts) {
    const guard = createRequestGuard('127.0.0.1', undefined);
    listener = await listenForViews({ mounts, listenHost: '127.0.0.1', checkHost: guard.checkHost });
    return `http://127.0.0.1:${listener.port}`;
  }

  it('serves a mounted view with its policy, and nothing else', async () => {
    const mounts = new ViewMounts();
    const mount = mounts.mount(viewInput({ connectDomains: ['https://api.example.com'] }));
    const base = await start(mounts);
    const response = await fetch(`${base}/views/${mount.documentToken}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('<!doctype html><p>view</p>');
    expect(response.headers.get('content-security-policy')).toBe(
      viewPolicy({ connectDomains: ['https://api.example.com'] }, consoleOrigin),
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    // The console's own name for the mount is not a document's.
    expect((await fetch(`${base}/views/${mount.id}`)).status).toBe(404);
    expect((await fetch(`${base}/views/${'A'.repeat(32)}`)).status).toBe(404);
    expect((await fetch(`${base}/views/${mount.documentToken}`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${base}/`)).status).toBe(404);
  });

  it('refuses a request under another host name (DNS rebinding)', async () => {
    const mounts = new ViewMounts();
    const mount = mounts.mount(viewInput());
    const base = await start(mounts);
    const status = await new Promise<number | undefined>((resolve, reject) => {
      request(`${base}/views/${mount.documentToken}`, { headers: { host: 'rebinding.example' } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(403);
  });

  it('lets a mount expire, and keeps each user’s mounts their own', async () => {
    let now = 0;
    const mounts = new ViewMounts(() => now);
    const mount = mounts.mount(viewInput(), 'call:1');
    expect(mounts.forUser(mount.id, 'bob')).toBeUndefined();
    expect(mounts.forUser(mount.id, 'alice')).toBe(mount);
    expect(mounts.mount(viewInput(), 'call:1')).toBe(mount);
    now = 61 * 60_000;
    expect(mounts.forUser(mount.id, 'alice')).toBeUndefined();
    expect(mounts.byDocumentToken(mount.documentToken)).toBeUndefined();
    expect(mounts.mount(viewInput(), 'call:1')).not.toBe(mount);
  });
});
