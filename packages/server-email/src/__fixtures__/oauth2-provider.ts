import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local OAuth2 provider: a token endpoint for refresh grants and an introspection endpoint for Dovecot. */
export interface OAuth2Provider {
  /** The token endpoint, `http://127.0.0.1:PORT/token`. */
  tokenUrl: string;
  /** The introspection endpoint Dovecot POSTs `token=…` to. */
  introspectionUrl: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** Refresh grants asked for, successful or not. */
  refreshes: number;
  /** Every access token issued, oldest first. */
  issued: string[];
  /** Tokens introspected while not (or no longer) valid: logins a server refused. */
  refusedIntrospections: number;
  /** Whether a token is valid now, for a test's own SMTP server. */
  isValid(token: string): boolean;
  /** Makes every token issued so far invalid, as if it had expired before its time. */
  expireIssued(): void;
  /** Revokes the refresh token: every grant after this answers `invalid_grant`. */
  revokeRefreshToken(): void;
  /** The lifetime the next tokens are issued with, in seconds. */
  setLifetime(seconds: number): void;
  close(): Promise<void>;
}

/** Starts the provider on 127.0.0.1 for one user; tokens are `access-1`, `access-2` … plus a random part. */
export async function startOAuth2Provider(user: string): Promise<OAuth2Provider> {
  const valid = new Set<string>();
  let revoked = false;
  let lifetime = 3600;
  const stamp = Math.random().toString(36).slice(2);
  const provider: OAuth2Provider = {
    tokenUrl: '',
    introspectionUrl: '',
    clientId: 'toolshed-test-client',
    clientSecret: `client-secret-${stamp}`,
    refreshToken: `refresh-token-${stamp}`,
    refreshes: 0,
    issued: [],
    refusedIntrospections: 0,
    isValid: (token) => valid.has(token),
    expireIssued: () => valid.clear(),
    revokeRefreshToken: () => {
      revoked = true;
    },
    setLifetime: (seconds) => {
      lifetime = seconds;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const answer = (status: number, body: Record<string, unknown>) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.url === '/token') {
        provider.refreshes++;
        const good =
          form.get('grant_type') === 'refresh_token' &&
          form.get('client_id') === provider.clientId &&
          form.get('client_secret') === provider.clientSecret &&
          form.get('refresh_token') === provider.refreshToken;
        if (!good || revoked) {
          answer(400, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' });
          return;
        }
        const token = `access-${provider.issued.length + 1}-${stamp}`;
        provider.issued.push(token);
        valid.add(token);
        answer(200, { access_token: token, token_type: 'Bearer', expires_in: lifetime });
        return;
      }
      if (request.url === '/introspect') {
        const token = form.get('token') ?? '';
        if (!valid.has(token)) {
          provider.refusedIntrospections++;
          answer(200, { active: false });
          return;
        }
        answer(200, { active: true, username: user });
        return;
      }
      answer(404, { error: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  provider.tokenUrl = `http://127.0.0.1:${port}/token`;
  provider.introspectionUrl = `http://127.0.0.1:${port}/introspect`;
  return provider;
}
