/** A static bearer token, with who it stands for and what it may do. */
export interface StaticBearerToken {
  token: string;
  /** Shown to tools as `ctx.auth.subject`; default "static-token-N". */
  subject?: string;
  /** Default: every required scope, so a static token passes scope checks. */
  scopes?: readonly string[];
}

/** JWT access tokens issued by an OAuth authorization server, verified with its JWKS. */
export interface JwtAuthOptions {
  /** The `iss` every token must carry. */
  issuer: string;
  /** Where the issuer publishes its signing keys. Default `<issuer>/.well-known/jwks.json`. */
  jwksUrl?: string;
  /** Accepted signing algorithms. Default RS256, ES256, PS256, EdDSA (never `none`, never HMAC). */
  algorithms?: readonly string[];
  /** Leeway for exp/nbf, in seconds. Default 30. */
  clockToleranceSeconds?: number;
}

/** Who an opaque token stands for, as the application's own store says; undefined when it stands for nobody. */
export type BearerTokenVerifier = (token: string) => TokenHolder | undefined | Promise<TokenHolder | undefined>;

/** What a token verifier says of a token it knows. */
export interface TokenHolder {
  subject: string;
  /** Default: every required scope. */
  scopes?: readonly string[];
  /** Seconds since the epoch at which the token stops being valid, when it does. */
  expiresAt?: number;
}

export interface HttpAuthOptions {
  /** Static bearer tokens: for a small team, from the environment or a file. */
  tokens?: readonly (string | StaticBearerToken)[];
  /**
   * Tokens the application keeps itself (hashed in its own store, created and
   * revoked while the server runs): asked after the static tokens, before JWT.
   */
  verifyToken?: BearerTokenVerifier;
  jwt?: JwtAuthOptions;
  /** Scopes every request needs; a token without them gets 403 insufficient_scope. */
  requiredScopes?: readonly string[];
  /**
   * This server's canonical URI (RFC 8707): the audience JWTs must name and
   * the `resource` of the protected-resource metadata. Default: the URL it serves.
   */
  resource?: string;
  /** Listed in the metadata. Default: the JWT issuer. */
  authorizationServers?: readonly string[];
  /** Listed in the metadata. Default: the required scopes. */
  scopesSupported?: readonly string[];
}
