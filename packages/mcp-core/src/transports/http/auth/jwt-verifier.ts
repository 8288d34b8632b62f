import type { AuthInfo } from '../../../engine/call-context.ts';
import type { JwtAuthOptions } from './http-auth-options.ts';

export type JwtVerdict = { ok: true; info: AuthInfo } | { ok: false; description: string };

function scopesOf(claims: Record<string, unknown>): string[] {
  if (typeof claims.scope === 'string') return claims.scope.split(' ').filter(Boolean);
  if (Array.isArray(claims.scp)) return claims.scp.filter((scope): scope is string => typeof scope === 'string');
  return [];
}

/**
 * Verifies JWT access tokens against the issuer's JWKS with jose: signature,
 * issuer, audience (this server's canonical URI, RFC 8707), expiry. jose is
 * loaded on first use, so servers without JWT auth never pay for it.
 */
export function createJwtVerifier(options: JwtAuthOptions, audience: string): (token: string) => Promise<JwtVerdict> {
  const jwksUrl = new URL(options.jwksUrl ?? `${options.issuer.replace(/\/$/, '')}/.well-known/jwks.json`);
  const algorithms = [...(options.algorithms ?? ['RS256', 'ES256', 'PS256', 'EdDSA'])];
  let verify: ((token: string) => Promise<Record<string, unknown>>) | undefined;

  async function load(): Promise<(token: string) => Promise<Record<string, unknown>>> {
    const jose = await import('jose');
    const keys = jose.createRemoteJWKSet(jwksUrl, { timeoutDuration: 5000, cooldownDuration: 30_000 });
    return async (token) => {
      const { payload } = await jose.jwtVerify(token, keys, {
        issuer: options.issuer,
        audience,
        algorithms,
        clockTolerance: options.clockToleranceSeconds ?? 30,
        requiredClaims: ['exp'],
      });
      return payload as Record<string, unknown>;
    };
  }

  return async (token) => {
    verify ??= await load();
    let claims: Record<string, unknown>;
    try {
      claims = await verify(token);
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      const description =
        code === 'ERR_JWT_EXPIRED'
          ? 'The access token has expired'
          : code === 'ERR_JWT_CLAIM_VALIDATION_FAILED'
            ? `The access token was not issued for this server (${(error as { claim?: string }).claim ?? 'claim'} mismatch)`
            : code.startsWith('ERR_JWKS')
              ? "The issuer's signing keys could not be fetched or did not match"
              : 'The access token is invalid';
      return { ok: false, description };
    }
    const clientId =
      typeof claims.client_id === 'string' ? claims.client_id : typeof claims.azp === 'string' ? claims.azp : undefined;
    return {
      ok: true,
      info: {
        subject: typeof claims.sub === 'string' ? claims.sub : undefined,
        scopes: scopesOf(claims),
        clientId,
        expiresAt: typeof claims.exp === 'number' ? claims.exp : undefined,
        claims,
      },
    };
  };
}
