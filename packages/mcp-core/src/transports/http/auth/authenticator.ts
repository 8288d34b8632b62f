import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '../../../engine/call-context.ts';
import { LocalError } from '../../../errors/local-error.ts';
import type { HttpAuthOptions } from './http-auth-options.ts';
import { createJwtVerifier } from './jwt-verifier.ts';
import { createStaticTokenVerifier } from './static-tokens.ts';

export type AuthOutcome =
  | { ok: true; info: AuthInfo }
  | { ok: false; status: 400 | 401 | 403; message: string; wwwAuthenticate: string };

/** The resource-server side of MCP auth for one endpoint. */
export interface Authenticator {
  /** Where the RFC 9728 metadata is served, as paths on this server. */
  readonly metadataPaths: readonly string[];
  readonly metadata: Record<string, unknown>;
  /** `query` is the request's query string, without the `?`. */
  authenticate(req: IncomingMessage, query: string): Promise<AuthOutcome>;
}

function quote(text: string): string {
  return `"${text.replace(/["\\]/g, '')}"`;
}

/**
 * Builds the bearer check: the token comes from the Authorization header only
 * (a token in the URL is refused: URLs end up in logs), is matched against
 * the static tokens, then given to the application's verifier, then verified
 * as a JWT; the required scopes are checked last. Failures carry the WWW-Authenticate header that points clients at
 * the protected-resource metadata.
 */
export function createAuthenticator(options: HttpAuthOptions, resource: string): Authenticator {
  if (options.tokens === undefined && options.jwt === undefined && options.verifyToken === undefined) {
    throw new LocalError('config_invalid', 'auth needs static tokens, a token verifier, a JWT issuer, or some of them');
  }
  const requiredScopes = [...(options.requiredScopes ?? [])];
  const matchStatic = createStaticTokenVerifier(options.tokens ?? [], requiredScopes);
  const verifyJwt = options.jwt === undefined ? undefined : createJwtVerifier(options.jwt, resource);
  const resourceUrl = new URL(resource);
  const suffix = resourceUrl.pathname === '/' ? '' : resourceUrl.pathname;
  const metadataPaths = [`/.well-known/oauth-protected-resource${suffix}`, '/.well-known/oauth-protected-resource'];
  const metadataUrl = `${resourceUrl.origin}${metadataPaths[0]}`;
  const metadata: Record<string, unknown> = {
    resource,
    authorization_servers: [...(options.authorizationServers ?? (options.jwt ? [options.jwt.issuer] : []))],
    bearer_methods_supported: ['header'],
  };
  const scopesSupported = options.scopesSupported ?? requiredScopes;
  if (scopesSupported.length > 0) metadata.scopes_supported = [...scopesSupported];

  const challenge = (error?: string, description?: string, scope?: string): string => {
    const parts = [`Bearer resource_metadata=${quote(metadataUrl)}`];
    if (error !== undefined) parts.push(`error=${quote(error)}`);
    if (description !== undefined) parts.push(`error_description=${quote(description)}`);
    if (scope !== undefined && scope !== '') parts.push(`scope=${quote(scope)}`);
    return parts.join(', ');
  };
  const scopeText = requiredScopes.join(' ');

  return {
    metadataPaths,
    metadata,
    async authenticate(req, query) {
      if (new URLSearchParams(query).has('access_token')) {
        const message = 'Access tokens in the URL are refused; send them in the Authorization header';
        return { ok: false, status: 401, message, wwwAuthenticate: challenge('invalid_request', message, scopeText) };
      }
      const header = req.headers.authorization;
      const match = header === undefined ? null : /^Bearer +([\x21-\x7e]+) *$/i.exec(header);
      if (match === null) {
        const message =
          header === undefined ? 'Authentication required' : 'The Authorization header must be "Bearer <token>"';
        const error = header === undefined ? undefined : 'invalid_request';
        return {
          ok: false,
          status: 401,
          message,
          wwwAuthenticate: challenge(error, header === undefined ? undefined : message, scopeText),
        };
      }
      const token = match[1] ?? '';
      let info = matchStatic(token);
      if (info === undefined && options.verifyToken !== undefined) {
        const holder = await options.verifyToken(token);
        if (holder !== undefined && (holder.expiresAt === undefined || holder.expiresAt * 1000 > Date.now())) {
          info = {
            subject: holder.subject,
            scopes: [...(holder.scopes ?? requiredScopes)],
            clientId: undefined,
            expiresAt: holder.expiresAt,
            claims: {},
          };
        }
      }
      if (info === undefined && verifyJwt !== undefined && token.split('.').length === 3) {
        const verdict = await verifyJwt(token);
        if (!verdict.ok) {
          return {
            ok: false,
            status: 401,
            message: verdict.description,
            wwwAuthenticate: challenge('invalid_token', verdict.description),
          };
        }
        info = verdict.info;
      }
      if (info === undefined) {
        const message = 'The access token is not valid for this server';
        return { ok: false, status: 401, message, wwwAuthenticate: challenge('invalid_token', message) };
      }
      const missing = requiredScopes.filter((scope) => !info.scopes.includes(scope));
      if (missing.length > 0) {
        const message = `The access token lacks the scope this server requires: ${missing.join(' ')}`;
        return {
          ok: false,
          status: 403,
          message,
          wwwAuthenticate: challenge('insufficient_scope', message, scopeText),
        };
      }
      return { ok: true, info };
    },
  };
}
