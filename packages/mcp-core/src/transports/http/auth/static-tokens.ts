import type { AuthInfo } from '../../../engine/call-context.ts';
import { LocalError } from '../../../errors/local-error.ts';
import type { StaticBearerToken } from './http-auth-options.ts';

// node:crypto is loaded where used, to keep it off the start-up path of servers that never see a token.
const digest = (text: string): Buffer =>
  process.getBuiltinModule('node:crypto').createHash('sha256').update(text, 'utf8').digest();

/**
 * Matches a presented token against the configured ones in constant time:
 * both sides are hashed to equal length and every token is compared, so
 * neither the length nor the position of a match leaks through timing.
 */
export function createStaticTokenVerifier(
  tokens: readonly (string | StaticBearerToken)[],
  requiredScopes: readonly string[],
): (presented: string) => AuthInfo | undefined {
  const entries = tokens.map((entry, index) => {
    const token = typeof entry === 'string' ? { token: entry } : entry;
    if (token.token.length < 16) {
      throw new LocalError(
        'config_invalid',
        `Static bearer token ${index + 1} is shorter than 16 characters; use a long random one`,
      );
    }
    const info: AuthInfo = {
      subject: token.subject ?? `static-token-${index + 1}`,
      scopes: [...(token.scopes ?? requiredScopes)],
      clientId: undefined,
      expiresAt: undefined,
      claims: {},
    };
    return { digest: digest(token.token), info };
  });
  const { timingSafeEqual } = process.getBuiltinModule('node:crypto');
  return (presented) => {
    const candidate = digest(presented);
    let found: AuthInfo | undefined;
    for (const entry of entries) {
      if (timingSafeEqual(candidate, entry.digest)) found = entry.info;
    }
    return found;
  };
}
