import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

/** A JWT issuer on loopback for tests of servers that take JWTs: its JWKS, and tokens signed with its key. */
export interface TokenIssuer {
  /** The issuer URL, `http://127.0.0.1:PORT`: give it as the server's `auth.jwt.issuer`. */
  readonly issuer: string;
  /**
   * A token for `audience` (the server's URL or `auth.resource`) with these
   * claims, valid for five minutes; `sub` defaults to `test-user`.
   */
  sign(audience: string, claims?: JWTPayload): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts an issuer whose key set is served where a server looks for it
 * (`/.well-known/jwks.json`), on 127.0.0.1, so a test signs in with real
 * tokens verified the real way.
 *
 * @example
 * const issuer = await startTokenIssuer();
 * const http = await serveHttp(server, { auth: { jwt: { issuer: issuer.issuer } } });
 * const token = await issuer.sign(http.url, { tenant_id: 7 });
 */
export async function startTokenIssuer(): Promise<TokenIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const key = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'ES256', use: 'sig' };
  const server = createServer((request, response) => {
    if (request.url !== '/.well-known/jwks.json') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [key] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    sign: (audience, claims = {}) =>
      new SignJWT({ sub: 'test-user', ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: 'test-key' })
        .setIssuer(issuer)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
