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

export interface HttpAuthOptions {
  /** Static bearer tokens: for a small team, from the environment or a file. */
  tokens?: readonly (string | StaticBearerToken)[];
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
