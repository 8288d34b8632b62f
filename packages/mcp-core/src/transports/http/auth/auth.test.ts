import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createFixtureServer } from '../../../__fixtures__/fixture-tools.ts';
import { initializeBody, jsonAndSse, send } from '../../../__fixtures__/http-peer.ts';
import { defineTool } from '../../../tools/define-tool.ts';
import { type HttpServerHandle, serveHttp } from '../serve-http.ts';

const staticToken = 'team-token-0123456789abcdef';
let jwks: Server;
let issuer: string;
let http: HttpServerHandle;
let signingKey: CryptoKey;
let strangerKey: CryptoKey;

const whoami = defineTool({
  name: 'whoami',
  description: 'Says who the caller is.',
  input: z.object({}),
  run: (_args, ctx) => JSON.stringify({ subject: ctx.auth?.subject, scopes: ctx.auth?.scopes }),
});

beforeAll(async () => {
  const pair = await generateKeyPair('ES256');
  signingKey = pair.privateKey;
  strangerKey = (await generateKeyPair('ES256')).privateKey;
  const publicJwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  jwks = createServer((req, res) => {
    if (req.url !== '/.well-known/jwks.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}`;
  const server = createFixtureServer();
  server.addTool(whoami);
  http = await serveHttp(server, {
    auth: { tokens: [{ token: staticToken, subject: 'ci-bot' }], jwt: { issuer }, requiredScopes: ['mcp:tools'] },
  });
});
afterAll(async () => {
  await http.close();
  await new Promise((resolve) => jwks.close(resolve));
});

interface Claims {
  iss?: string;
  aud?: string;
  scope?: string;
  expiresIn?: string | number;
  key?: CryptoKey;
}

async function token(claims: Claims = {}): Promise<string> {
  return new SignJWT({ scope: claims.scope ?? 'mcp:tools profile' })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
    .setIssuer(claims.iss ?? issuer)
    .setAudience(claims.aud ?? http.url)
    .setSubject('alice')
    .setIssuedAt()
    .setExpirationTime(claims.expiresIn ?? '5m')
    .sign(claims.key ?? signingKey);
}

const unsigned = (): string => {
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none' })}.${part({ iss: 'x', aud: 'y', sub: 'mallory', exp: 9999999999, scope: 'mcp:tools' })}.`;
};

async function initializeWith(authorization: string | undefined, query = '') {
  const headers: Record<string, string> = { accept: jsonAndSse };
  if (authorization !== undefined) headers.authorization = authorization;
  return send(`${http.url}${query}`, { headers, body: initializeBody() });
}

describe('resource-server auth', () => {
  type Row = [
    name: string,
    authorization: () => Promise<string | undefined>,
    query: string,
    status: number,
    challenge: RegExp | null,
  ];
  const rows: Row[] = [
    ['a valid JWT', async () => `Bearer ${await token()}`, '', 200, null],
    ['a valid static token', async () => `Bearer ${staticToken}`, '', 200, null],
    ['no token', async () => undefined, '', 401, /^Bearer resource_metadata="[^"]+", scope="mcp:tools"$/],
    [
      'an expired JWT',
      async () => `Bearer ${await token({ expiresIn: Math.floor(Date.now() / 1000) - 3600 })}`,
      '',
      401,
      /error="invalid_token", error_description="The access token has expired"/,
    ],
    [
      'a JWT for another audience',
      async () => `Bearer ${await token({ aud: 'https://other.example/mcp' })}`,
      '',
      401,
      /error="invalid_token".*aud mismatch/,
    ],
    [
      'a JWT from another issuer',
      async () => `Bearer ${await token({ iss: 'https://evil.example' })}`,
      '',
      401,
      /error="invalid_token".*iss mismatch/,
    ],
    [
      'a JWT signed by an unknown key',
      async () => `Bearer ${await token({ key: strangerKey })}`,
      '',
      401,
      /error="invalid_token"/,
    ],
    ['an unsigned JWT (alg none)', async () => `Bearer ${unsigned()}`, '', 401, /error="invalid_token"/],
    [
      'a JWT without the required scope',
      async () => `Bearer ${await token({ scope: 'profile' })}`,
      '',
      403,
      /error="insufficient_scope".*scope="mcp:tools"/,
    ],
    ['a wrong static token', async () => 'Bearer team-token-0123456789abcdeX', '', 401, /error="invalid_token"/],
    ['a Basic credential', async () => 'Basic YWxpY2U6c2VjcmV0', '', 401, /error="invalid_request"/],
    [
      'a token in the query string',
      async () => undefined,
      `?access_token=${staticToken}`,
      401,
      /error="invalid_request".*Authorization header/,
    ],
    [
      'a token in the query string beside a valid header',
      async () => `Bearer ${staticToken}`,
      `?access_token=${staticToken}`,
      401,
      /invalid_request/,
    ],
  ];

  it.each(rows)('%s', async (_name, authorization, query, status, challenge) => {
    const response = await initializeWith(await authorization(), query);
    expect(response.status, response.text).toBe(status);
    const header = response.headers.get('www-authenticate');
    if (challenge === null) {
      expect(header).toBeNull();
      expect(response.headers.get('mcp-session-id')).not.toBeNull();
    } else {
      expect(header).toMatch(challenge);
      expect(header).toContain(
        `resource_metadata="${new URL(http.url).origin}/.well-known/oauth-protected-resource/mcp"`,
      );
      expect((response.json() as { error: { code: number } }).error.code).toBe(-32000);
    }
  });

  it('serves RFC 9728 metadata at the path-suffixed and the root well-known URLs, without auth', async () => {
    const origin = new URL(http.url).origin;
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await send(`${origin}${path}`);
      expect(response.status).toBe(200);
      expect(response.json()).toEqual({
        resource: http.url,
        authorization_servers: [issuer],
        bearer_methods_supported: ['header'],
        scopes_supported: ['mcp:tools'],
      });
    }
  });

  it('tells tools who is calling, and never the token', async () => {
    const authorization = `Bearer ${await token()}`;
    const init = await initializeWith(authorization);
    const headers = {
      accept: 'application/json',
      authorization,
      'mcp-session-id': init.headers.get('mcp-session-id') ?? '',
      'mcp-protocol-version': '2025-11-25',
    };
    const answer = await send(http.url, {
      headers,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } },
    });
    const text = (answer.json() as { result: { content: { text: string }[] } }).result.content[0]?.text ?? '';
    expect(JSON.parse(text)).toEqual({ subject: 'alice', scopes: ['mcp:tools', 'profile'] });
    expect(text).not.toContain(authorization.slice(7));
  });

  it('checks every request, not only initialize', async () => {
    const init = await initializeWith(`Bearer ${staticToken}`);
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    const response = await send(http.url, {
      headers: { accept: 'application/json', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    });
    expect(response.status).toBe(401);
  });

  it("asks the application's verifier for tokens it keeps itself, as they are created, revoked and expire", async () => {
    const known = new Map<string, { subject: string; expiresAt?: number }>();
    const server = createFixtureServer();
    server.addTool(whoami);
    const own = await serveHttp(server, {
      auth: { verifyToken: (presented) => known.get(presented), requiredScopes: ['mcp:tools'] },
    });
    try {
      const call = async (presented: string) => {
        const response = await send(own.url, {
          headers: { accept: jsonAndSse, authorization: `Bearer ${presented}` },
          body: initializeBody(),
        });
        return response.status;
      };
      expect(await call('made-later-0123456789')).toBe(401);
      known.set('made-later-0123456789', { subject: 'console-user' });
      expect(await call('made-later-0123456789')).toBe(200);
      // Expired in 1970: no clock reading, on any machine.
      known.set('expired-0123456789abc', { subject: 'old', expiresAt: 1 });
      expect(await call('expired-0123456789abc')).toBe(401);
      known.delete('made-later-0123456789');
      expect(await call('made-later-0123456789')).toBe(401);
    } finally {
      await own.close();
    }
  });

  it('refuses short static tokens at start', async () => {
    await expect(serveHttp(createFixtureServer(), { auth: { tokens: ['short'] } })).rejects.toThrow(/shorter than 16/);
  });
});
