import { LocalError, ToolError } from '@toolshed/mcp-core';
import type { OAuth2Options } from './email-server-options.ts';

/** An access token and when it stops being good, as far as the token endpoint said. */
export interface AccessToken {
  value: string;
  /** Milliseconds since the epoch; undefined when the endpoint gave no lifetime. */
  expiresAt: number | undefined;
}

/**
 * The one source of access tokens for a server's IMAP and SMTP logins. A
 * token is refreshed when it is close to its expiry, and when a server has
 * refused it — once for that token: a caller that saw a token refused passes
 * it back, and gets a new one only if no other caller got one meanwhile.
 * Nothing retries on its own, so a login that keeps failing fails, never loops.
 */
export interface OAuth2TokenSource {
  /** The current token, refreshed first when it expires soon or when `refused` is the current token. */
  token(options?: { refused?: string | undefined; signal?: AbortSignal | undefined }): Promise<AccessToken>;
  /** Removes every secret this source knows from a text, for error messages that quote a server. */
  redact(text: string): string;
}

// Refreshed this long before the stated expiry: a login that starts in time must not end with a stale token.
const refreshMarginMs = 60_000;
const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Refuses a token URL that would carry the client secret and refresh token in clear text off this machine. */
export function checkTokenUrl(text: string): URL {
  const url = URL.parse(text);
  if (url === null || (url.protocol !== 'https:' && url.protocol !== 'http:')) {
    throw new LocalError('config_invalid', 'The OAuth2 token URL (--oauth2-token-url) must be an https:// URL');
  }
  if (url.protocol === 'http:' && !loopbackHosts.has(url.hostname)) {
    throw new LocalError(
      'config_invalid',
      `The OAuth2 token URL must use https (http only to 127.0.0.1 or ::1), not ${url.origin}`,
    );
  }
  return url;
}

interface TokenResponse {
  access_token?: unknown;
  expires_in?: unknown;
  refresh_token?: unknown;
  error?: unknown;
  error_description?: unknown;
}

/**
 * Refresh-token grants (RFC 6749 §6) at the operator's token endpoint: the
 * client id, the client secret when there is one, and the refresh token, as
 * a form POST; a new refresh token in the answer replaces the old one for
 * this process. No token or secret ever appears in an error.
 */
export function createOAuth2TokenSource(options: OAuth2Options, timeoutMs: number): OAuth2TokenSource {
  const url = checkTokenUrl(options.tokenUrl);
  let refreshToken = options.refreshToken;
  let current: AccessToken | undefined;
  let refreshing: Promise<AccessToken> | undefined;

  const secrets = () => [refreshToken, options.clientSecret, current?.value].filter((value) => value !== undefined);
  const redact = (text: string) =>
    secrets()
      .filter((secret) => secret.length >= 4)
      .reduce((cleaned, secret) => cleaned.split(secret).join('[redacted]'), text);

  async function refresh(signal: AbortSignal | undefined): Promise<AccessToken> {
    const form = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: options.clientId,
      ...(options.clientSecret === undefined ? {} : { client_secret: options.clientSecret }),
    });
    const time = AbortSignal.timeout(timeoutMs);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form,
        signal: signal === undefined ? time : AbortSignal.any([signal, time]),
        redirect: 'error',
      });
    } catch (error) {
      const reason = time.aborted ? `no answer within ${timeoutMs} ms` : redact((error as Error).message);
      throw new ToolError(`The OAuth2 token endpoint ${url.origin} could not be reached (${reason}); try again later.`);
    }
    const body = (await response.json().catch(() => ({}))) as TokenResponse;
    if (!response.ok || typeof body.access_token !== 'string' || body.access_token === '') {
      const code = typeof body.error === 'string' ? body.error.slice(0, 100) : `HTTP ${response.status}`;
      const said = typeof body.error_description === 'string' ? `: ${body.error_description.slice(0, 200)}` : '';
      const what =
        code === 'invalid_grant'
          ? 'refused the refresh token, which has expired or been revoked: sign in again and set a new TOOLSHED_EMAIL_OAUTH2_REFRESH_TOKEN'
          : code === 'invalid_client' || code === 'unauthorized_client'
            ? 'refused this client: check --oauth2-client-id and TOOLSHED_EMAIL_OAUTH2_CLIENT_SECRET'
            : 'gave no access token';
      throw new ToolError(
        redact(`The OAuth2 token endpoint ${url.origin} ${what} (${code}${said}).`).replace(/[\p{Cc}]/gu, ' '),
      );
    }
    if (typeof body.refresh_token === 'string' && body.refresh_token !== '') refreshToken = body.refresh_token;
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : Number(body.expires_in);
    return {
      value: body.access_token,
      expiresAt: Number.isFinite(lifetime) && lifetime > 0 ? Date.now() + lifetime * 1000 : undefined,
    };
  }

  return {
    redact,
    async token({ refused, signal } = {}) {
      const fresh =
        current !== undefined &&
        current.value !== refused &&
        (current.expiresAt === undefined || current.expiresAt - refreshMarginMs > Date.now());
      if (fresh && current !== undefined) return current;
      // One refresh at a time: callers that find one under way wait for its token.
      refreshing ??= refresh(signal).finally(() => {
        refreshing = undefined;
      });
      current = await refreshing;
      return current;
    },
  };
}
