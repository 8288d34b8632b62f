const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether an address to bind is loopback-only (so nothing off the machine can connect). */
export function isLoopbackAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === 'localhost' || bare === '::1') return true;
  // node:net is loaded here, not imported, to keep it off a stdio server's start-up path.
  const { isIP } = process.getBuiltinModule('node:net');
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** The host name of a Host header value, without its port, lower-cased. */
export function hostName(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(0, value.indexOf(']') + 1);
  const colon = value.lastIndexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

export interface OriginPolicy {
  /** Host names (without port) accepted in the Host header; undefined accepts any. */
  readonly allowedHosts: ReadonlySet<string> | undefined;
  /** Origins (scheme://host[:port]) accepted when a browser sends Origin. */
  readonly allowedOrigins: ReadonlySet<string>;
  /** Whether any origin of a loopback host is accepted (the default for loopback servers). */
  readonly loopbackOrigins: boolean;
}

/**
 * The DNS-rebinding defence: a page on evil.example can make a browser send
 * requests to 127.0.0.1, but the browser still says `Host: evil.example` and
 * `Origin: http://evil.example`. Loopback servers accept only loopback names;
 * others accept the hosts the operator lists.
 */
export function createOriginPolicy(
  bindHost: string,
  allowedHosts: readonly string[] | undefined,
  allowedOrigins: readonly string[] | undefined,
): OriginPolicy {
  const loopback = isLoopbackAddress(bindHost);
  let hosts: Set<string> | undefined;
  if (allowedHosts !== undefined) hosts = new Set(allowedHosts.map((host) => hostName(host)));
  else if (loopback) hosts = new Set(loopbackNames);
  return {
    allowedHosts: hosts,
    allowedOrigins: new Set((allowedOrigins ?? []).map((origin) => origin.toLowerCase().replace(/\/$/, ''))),
    loopbackOrigins: loopback && allowedOrigins === undefined,
  };
}

/** Why a request fails the policy, or undefined when it passes. */
export function checkOrigin(
  policy: OriginPolicy,
  host: string | undefined,
  origin: string | undefined,
): string | undefined {
  if (policy.allowedHosts !== undefined) {
    if (host === undefined || !policy.allowedHosts.has(hostName(host))) {
      return `Host header ${JSON.stringify(host ?? '')} is not allowed`;
    }
  }
  if (origin === undefined) return undefined; // Not a browser: nothing to rebind.
  const normalised = origin.toLowerCase().replace(/\/$/, '');
  if (policy.allowedOrigins.has(normalised)) return undefined;
  if (policy.loopbackOrigins) {
    try {
      const url = new URL(normalised);
      if ((url.protocol === 'http:' || url.protocol === 'https:') && loopbackNames.has(url.hostname)) return undefined;
    } catch {
      // Falls through to refusal.
    }
  }
  return `Origin ${JSON.stringify(origin)} is not allowed`;
}
