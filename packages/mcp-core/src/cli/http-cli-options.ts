import type { CliOptionSpec } from './cli-spec.ts';

/**
 * The flags every bin shares for serving over HTTP. Spread them into a
 * bin's options; `serve` reads them. Bearer tokens are secrets, so they come
 * from the environment (TOOLSHED_HTTP_TOKENS) or a file, never a flag.
 */
type Typed<Kind extends CliOptionSpec['type']> = CliOptionSpec & { type: Kind };

// A type alias, not an interface, so that it fits Record<string, CliOptionSpec>.
export type HttpCliOptionSpecs = {
  http: Typed<'string'>;
  httpStateless: Typed<'boolean'>;
  httpSessionPrefix: Typed<'string'>;
  httpAllowedHosts: Typed<'list'>;
  httpAllowedOrigins: Typed<'list'>;
  httpTokensFile: Typed<'string'>;
  httpJwtIssuer: Typed<'string'>;
  httpJwksUrl: Typed<'string'>;
  httpResource: Typed<'string'>;
  httpRequiredScopes: Typed<'list'>;
  httpInsecureNoAuth: Typed<'boolean'>;
  metrics: Typed<'string'>;
};

export const httpCliOptions: HttpCliOptionSpecs = {
  http: {
    type: 'string',
    env: 'TOOLSHED_HTTP',
    placeholder: '[HOST:]PORT',
    description: 'Serve Streamable HTTP at /mcp instead of stdio; HOST defaults to 127.0.0.1',
  },
  httpStateless: {
    type: 'boolean',
    env: 'TOOLSHED_HTTP_STATELESS',
    description: 'Serve HTTP without sessions (no GET stream, no questions to the client)',
  },
  httpSessionPrefix: {
    type: 'string',
    env: 'TOOLSHED_HTTP_SESSION_PREFIX',
    placeholder: 'PREFIX',
    description: 'Start 2025-era session ids with PREFIX, so a load balancer can pin sessions to this replica',
  },
  httpAllowedHosts: {
    type: 'list',
    env: 'TOOLSHED_HTTP_ALLOWED_HOSTS',
    placeholder: 'HOST',
    description: 'Host header names to accept (DNS-rebinding defence); default loopback names on loopback',
  },
  httpAllowedOrigins: {
    type: 'list',
    env: 'TOOLSHED_HTTP_ALLOWED_ORIGINS',
    placeholder: 'ORIGIN',
    description: 'Browser origins to accept; default any loopback origin on loopback',
  },
  httpTokensFile: {
    type: 'string',
    env: 'TOOLSHED_HTTP_TOKENS_FILE',
    placeholder: 'PATH',
    description: 'File of static bearer tokens, one per line (or set TOOLSHED_HTTP_TOKENS, comma-separated)',
  },
  httpJwtIssuer: {
    type: 'string',
    env: 'TOOLSHED_HTTP_JWT_ISSUER',
    placeholder: 'URL',
    description: 'Accept JWT access tokens from this OAuth issuer, verified with its JWKS',
  },
  httpJwksUrl: {
    type: 'string',
    env: 'TOOLSHED_HTTP_JWKS_URL',
    placeholder: 'URL',
    description: "The issuer's JWKS; default <issuer>/.well-known/jwks.json",
  },
  httpResource: {
    type: 'string',
    env: 'TOOLSHED_HTTP_RESOURCE',
    placeholder: 'URL',
    description: "This server's canonical URL: the audience tokens must carry; default the served URL",
  },
  httpRequiredScopes: {
    type: 'list',
    env: 'TOOLSHED_HTTP_REQUIRED_SCOPES',
    placeholder: 'SCOPE',
    description: 'Scopes every request needs',
  },
  httpInsecureNoAuth: {
    type: 'boolean',
    env: 'TOOLSHED_HTTP_INSECURE_NO_AUTH',
    description: 'Allow serving a non-loopback address without auth (anyone who reaches it can call every tool)',
  },
  metrics: {
    type: 'string',
    env: 'TOOLSHED_METRICS',
    placeholder: '[HOST:]PORT',
    description:
      'Serve OpenTelemetry metrics at /metrics for Prometheus; HOST defaults to 127.0.0.1 (spans and OTLP: the OTEL_* variables)',
  },
};
