import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackAddress, LocalError } from '@toolshed/mcp-core';
import type { Host } from '../create-host.ts';
import { approvalList, approvalsPage } from './approvals-page.ts';
import { auditPage } from './audit-page.ts';
import { consoleScript, consoleStylesheet } from './console-assets.ts';
import { ConsoleCalls } from './console-calls.ts';
import { type ConsolePageName, consolePage, notice } from './console-layout.ts';
import { createRequestGuard, pagePolicy, securityHeaders } from './console-request-guard.ts';
import {
  type ConsoleSession,
  ConsoleSessions,
  cookieHeader,
  loginCookie,
  readCookies,
  sameSecret,
  sessionCookie,
} from './console-sessions.ts';
import type { TokenStore } from './console-token-store.ts';
import { startConsoleViews } from './console-views.ts';
import { html, type SafeHtml } from './html.ts';
import { editArray, readSchemaValue } from './schema-form-values.ts';
import { serversPage } from './servers-page.ts';
import { loginPage, tokensPage } from './tokens-page.ts';
import { callResultPage, findTool, toolListPage, tryItForm } from './try-it-page.ts';
import { viewHostScript } from './view-host-script.ts';

// Built-ins are taken with getBuiltinModule: imported as ES modules, node:crypto and node:http build a facade
// of every export at start, lazy ones included (node:http's loads Node's whole bundled undici).
const { randomBytes } = process.getBuiltinModule('node:crypto');
const { createServer } = process.getBuiltinModule('node:http');

export interface ConsoleServerOptions {
  host: Host;
  tokens: TokenStore;
  /** Address to bind. Default 127.0.0.1. */
  listenHost?: string | undefined;
  /** Port; 0 picks a free one. Default 0. */
  port?: number | undefined;
  /** Host header names accepted; required to bind anything but loopback. */
  allowedHosts?: readonly string[] | undefined;
}

export interface ConsoleServerHandle {
  /** The console's address, such as http://127.0.0.1:3100/. */
  readonly url: string;
  close(): Promise<void>;
}

/** Form bodies are small: arguments for a tool, a token, a decision. */
const maxFormBytes = 1024 * 1024;

class ConsoleHttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new ConsoleHttpError(415, 'Forms only: application/x-www-form-urlencoded');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxFormBytes) throw new ConsoleHttpError(413, 'The form is larger than 1 MiB');
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/**
 * The host's web console: servers, try it, approvals, audit and tokens, as
 * server-rendered pages with one stylesheet and one small script from the
 * console itself. Every request passes the Host check; every page but the
 * login form needs a session from a token; every POST must come from the
 * console's own origin and carry the session's form token; every response
 * carries a strict Content-Security-Policy and the usual security headers.
 */
export async function serveConsole(options: ConsoleServerOptions): Promise<ConsoleServerHandle> {
  const { host, tokens } = options;
  const listenHost = options.listenHost ?? '127.0.0.1';
  if (!isLoopbackAddress(listenHost) && (options.allowedHosts === undefined || options.allowedHosts.length === 0)) {
    throw new LocalError(
      'config_invalid',
      `the console binds ${listenHost}, which is not loopback: name the host names browsers will use with --console-allowed-hosts (and put it behind TLS)`,
    );
  }
  const guard = createRequestGuard(listenHost, options.allowedHosts);
  const sessions = new ConsoleSessions(host.store);
  const calls = new ConsoleCalls(host);
  const streams = new Set<ServerResponse>();
  const views = await startConsoleViews({ host, calls, listenHost, checkHost: guard.checkHost });

  const send = (
    response: ServerResponse,
    status: number,
    body: string,
    headers: Record<string, string | string[]> = {},
  ): void => {
    response.writeHead(status, {
      ...securityHeaders,
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    });
    response.end(body);
  };
  const redirect = (response: ServerResponse, location: string, headers: Record<string, string | string[]> = {}) => {
    response.writeHead(303, { ...securityHeaders, location, 'content-length': '0', ...headers });
    response.end();
  };
  const page = (
    response: ServerResponse,
    session: ConsoleSession,
    current: ConsolePageName | undefined,
    title: string,
    body: SafeHtml,
    status = 200,
    head?: SafeHtml,
    headers?: Record<string, string>,
  ) => send(response, status, consolePage({ title, current, session, body, head }), headers);
  const errorPage = (response: ServerResponse, status: number, message: string, session?: ConsoleSession) =>
    send(
      response,
      status,
      consolePage({ title: status === 404 ? 'Not found' : 'Refused', session, body: notice(message, 'error') }),
    );

  /** The login form, bound to a cookie: kept when the browser has one, so two open login tabs both work. */
  const loginForm = (response: ServerResponse, status: number, cookies: Map<string, string>, message?: string) => {
    const current = cookies.get(loginCookie);
    const loginCsrf =
      current !== undefined && /^[A-Za-z0-9_-]{43}$/.test(current) ? current : randomBytes(32).toString('base64url');
    send(response, status, consolePage({ title: 'Log in', body: loginPage(loginCsrf, message) }), {
      'set-cookie': cookieHeader(loginCookie, loginCsrf, 600),
    });
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://console.invalid');
    const path = url.pathname;
    const method = request.method ?? 'GET';
    const hostRefusal = guard.checkHost(request.headers.host);
    if (hostRefusal !== undefined) {
      errorPage(response, 403, `Forbidden: ${hostRefusal} (DNS rebinding protection)`);
      return;
    }
    if (method === 'GET' && path === '/assets/console.css') {
      send(response, 200, consoleStylesheet, { 'content-type': 'text/css; charset=utf-8' });
      return;
    }
    if (method === 'GET' && path === '/assets/console.js') {
      send(response, 200, consoleScript, { 'content-type': 'text/javascript; charset=utf-8' });
      return;
    }
    if (method === 'GET' && path === '/assets/view-host.js') {
      send(response, 200, viewHostScript, { 'content-type': 'text/javascript; charset=utf-8' });
      return;
    }
    if (path === '/favicon.ico') {
      response.writeHead(404, { ...securityHeaders, 'content-length': '0' });
      response.end();
      return;
    }
    if (method !== 'GET' && method !== 'POST') {
      errorPage(response, 405, 'Only GET and POST');
      return;
    }
    const cookies = readCookies(request.headers.cookie);
    let form: URLSearchParams | undefined;
    if (method === 'POST') {
      const crossSite = guard.checkSameOrigin(
        request.headers.host,
        request.headers.origin,
        request.headers['sec-fetch-site'] as string | undefined,
      );
      if (crossSite !== undefined) {
        errorPage(response, 403, `Forbidden: ${crossSite}; forms are accepted from this console’s own pages only`);
        return;
      }
      form = await readForm(request);
    }

    if (path === '/login') {
      if (method === 'GET') {
        if ((await sessions.find(cookies.get(sessionCookie))) !== undefined) return redirect(response, '/servers');
        return loginForm(response, 200, cookies);
      }
      if (!sameSecret(form?.get('csrf') ?? undefined, cookies.get(loginCookie) ?? '') || !cookies.get(loginCookie)) {
        return loginForm(
          response,
          403,
          cookies,
          'The login form expired or did not come from this console; try again.',
        );
      }
      const token = await tokens.verify(form?.get('token') ?? '');
      if (token === undefined) return loginForm(response, 401, cookies, 'That token is not valid here.');
      const previous = cookies.get(sessionCookie);
      if (previous !== undefined) await sessions.close(previous);
      const session = await sessions.open(token.user, token.id);
      return redirect(response, '/servers', {
        'set-cookie': [cookieHeader(sessionCookie, session.id), cookieHeader(loginCookie, '', 0)],
      });
    }

    const session = await sessions.find(cookies.get(sessionCookie));
    if (session === undefined) {
      if (method === 'GET' && !path.startsWith('/approvals/')) return redirect(response, '/login');
      errorPage(response, 401, 'Log in first.');
      return;
    }
    if (method === 'POST' && !sameSecret(form?.get('csrf') ?? undefined, session.csrf)) {
      errorPage(response, 403, 'Forbidden: the form token is missing or wrong; reload the page and try again', session);
      return;
    }

    if (path === '/logout' && method === 'POST') {
      await sessions.close(session.id);
      return redirect(response, '/login', { 'set-cookie': cookieHeader(sessionCookie, '', 0) });
    }
    if (path === '/' && method === 'GET') return redirect(response, '/servers');
    if (path === '/servers' && method === 'GET') {
      return page(response, session, 'servers', 'Servers', serversPage(host));
    }
    if (path === '/try' && method === 'GET') return page(response, session, 'try', 'Try it', toolListPage(host));
    const tryMatch = /^\/try\/([^/]+)$/.exec(path);
    if (tryMatch !== null) {
      const name = decodeURIComponent(tryMatch[1] ?? '');
      const tool = findTool(host, name);
      if (tool === undefined) return errorPage(response, 404, `No tool named ${name} is served now.`, session);
      if (method === 'GET') return page(response, session, 'try', `Try ${name}`, tryItForm(tool, {}, session.csrf));
      const values = (readSchemaValue({ ...tool.schema, type: 'object' }, form as URLSearchParams, '', true) ??
        {}) as Record<string, unknown>;
      const add = form?.get('_add') ?? undefined;
      const remove = form?.get('_remove') ?? undefined;
      if (add !== undefined || remove !== undefined) {
        const edited = editArray(values, tool.schema, { add, remove });
        return page(response, session, 'try', `Try ${name}`, tryItForm(tool, edited, session.csrf));
      }
      const call = calls.start(session.user, name, values);
      return redirect(response, `/calls/${call.id}`);
    }
    const callMatch = /^\/calls\/([A-Za-z0-9_-]+)$/.exec(path);
    if (callMatch !== null && method === 'GET') {
      const call = calls.get(callMatch[1] ?? '', session.user);
      if (call === undefined) return errorPage(response, 404, 'No such call of yours.', session);
      const head = call.state === 'running' ? html`<meta http-equiv="refresh" content="1">` : undefined;
      const origins = views.originsOf(request.headers.host ?? '');
      const view = await views.ofCall(call, origins);
      return page(response, session, 'try', `Call ${call.tool}`, callResultPage(call, view), 200, head, {
        ...pagePolicy(origins.view),
      });
    }
    const viewCallMatch = /^\/views\/([A-Za-z0-9_-]+)\/call$/.exec(path);
    if (viewCallMatch !== null && method === 'POST') {
      const answer = await views.call(viewCallMatch[1] ?? '', session.user, form as URLSearchParams);
      return send(response, answer.status, JSON.stringify(answer.body), {
        'content-type': 'application/json; charset=utf-8',
      });
    }
    if (path === '/approvals' && method === 'GET') {
      const done = url.searchParams.get('done');
      const message =
        done === 'approve'
          ? 'Approved: the call runs now.'
          : done === 'deny'
            ? 'Denied: the call was not run.'
            : undefined;
      const pending = await host.approvals.pending();
      const origins = views.originsOf(request.headers.host ?? '');
      return page(
        response,
        session,
        'approvals',
        'Approvals',
        html`${notice(message)}${approvalsPage(pending, session.csrf, await views.ofApprovals(pending, session.user, origins))}`,
        200,
        undefined,
        pagePolicy(origins.view),
      );
    }
    if (path === '/approvals/list' && method === 'GET') {
      const pending = await host.approvals.pending();
      const panels = await views.ofApprovals(pending, session.user, views.originsOf(request.headers.host ?? ''));
      return send(response, 200, approvalList(pending, session.csrf, Date.now(), panels).text);
    }
    if (path === '/approvals/events' && method === 'GET') {
      response.writeHead(200, {
        ...securityHeaders,
        'content-type': 'text/event-stream; charset=utf-8',
        connection: 'keep-alive',
      });
      response.write('retry: 2000\n\n');
      streams.add(response);
      const stop = host.approvals.onChange(() => response.write('event: changed\ndata: {}\n\n'));
      const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), 25_000);
      keepAlive.unref();
      response.on('close', () => {
        stop();
        clearInterval(keepAlive);
        streams.delete(response);
      });
      return;
    }
    const decisionMatch = /^\/approvals\/([A-Za-z0-9_-]+)$/.exec(path);
    if (decisionMatch !== null && method === 'POST') {
      const decision = form?.get('decision');
      if (decision !== 'approve' && decision !== 'deny') {
        return errorPage(response, 400, 'Say approve or deny.', session);
      }
      const outcome = await host.approvals.decide(decisionMatch[1] ?? '', {
        tool: form?.get('tool') ?? '',
        argumentsDigest: form?.get('digest') ?? '',
        approve: decision === 'approve',
        by: session.user,
      });
      if (outcome.ok) return redirect(response, `/approvals?done=${decision}`);
      const messages = {
        already_decided: 'This call was already decided: an approval is used once. A new call asks anew.',
        unknown: 'No call is waiting under this request: it ended, or the host restarted.',
        expired: 'This request expired before the decision; the call was refused.',
        mismatch: 'The tool or the arguments are not what this request is for; nothing was decided.',
      } as const;
      return page(
        response,
        session,
        'approvals',
        'Approvals',
        html`${notice(messages[outcome.refusal], 'error')}${approvalsPage(await host.approvals.pending(), session.csrf)}`,
        409,
      );
    }
    if (path === '/audit' && method === 'GET') {
      return page(response, session, 'audit', 'Audit log', await auditPage(host, url.searchParams));
    }
    if (path === '/tokens' && method === 'GET') {
      return page(response, session, 'tokens', 'Tokens', tokensPage(await tokens.list(), session.csrf));
    }
    if (path === '/tokens' && method === 'POST') {
      const user = form?.get('user')?.trim() ?? '';
      const label = (form?.get('label') ?? '').trim().slice(0, 80);
      if (!/^[A-Za-z0-9._@-]{1,64}$/.test(user)) {
        return page(
          response,
          session,
          'tokens',
          'Tokens',
          html`${notice('A user name is 1 to 64 of letters, digits, . _ @ and -.', 'error')}${tokensPage(await tokens.list(), session.csrf)}`,
          400,
        );
      }
      const created = await tokens.create(user, label);
      return page(
        response,
        session,
        'tokens',
        'Tokens',
        tokensPage(await tokens.list(), session.csrf, { user, secret: created.secret }),
      );
    }
    const revokeMatch = /^\/tokens\/([0-9a-f]+)\/revoke$/.exec(path);
    if (revokeMatch !== null && method === 'POST') {
      await tokens.revoke(revokeMatch[1] ?? '');
      return redirect(response, '/tokens');
    }
    errorPage(response, 404, `Nothing at ${path}.`, session);
  }

  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      const status = error instanceof ConsoleHttpError ? error.status : 500;
      send(
        response,
        status,
        consolePage({
          title: 'Error',
          body: notice(error instanceof ConsoleHttpError ? error.message : 'The console failed to answer.', 'error'),
        }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, listenHost, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch(async (error: unknown) => {
    await views.close();
    throw error;
  });
  const address = server.address() as AddressInfo;
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`;
  const detach = host.approvals.attach(url);
  return {
    url,
    async close() {
      detach();
      for (const stream of streams) stream.end();
      await calls.close();
      await views.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
