import { hostHeaderName, isLoopbackAddress } from '@toolshed/mcp-core';

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * The checks every console request passes, as the MCP endpoint's: the Host
 * header must be a loopback name when the console is bound to loopback (or
 * one of the names the operator allows), which defeats DNS rebinding. A
 * request that changes anything must also come from the console's own pages:
 * its Origin must be exactly the console's origin (a page on another port of
 * localhost is another origin), and Sec-Fetch-Site, when sent, same-origin.
 */
export function createRequestGuard(bindHost: string, allowedHosts: readonly string[] | undefined) {
  const hosts =
    allowedHosts !== undefined
      ? new Set(allowedHosts.map(hostHeaderName))
      : isLoopbackAddress(bindHost)
        ? loopbackNames
        : undefined;
  return {
    /** Why the Host header is refused, or undefined. */
    checkHost(host: string | undefined): string | undefined {
      if (hosts === undefined) return undefined;
      if (host === undefined || !hosts.has(hostHeaderName(host))) {
        return `Host header ${JSON.stringify(host ?? '')} is not allowed`;
      }
      return undefined;
    },
    /** Why a state-changing request is refused as cross-site, or undefined. */
    checkSameOrigin(
      host: string | undefined,
      origin: string | undefined,
      fetchSite: string | undefined,
    ): string | undefined {
      if (fetchSite !== undefined && fetchSite !== 'same-origin') return `a ${fetchSite} request`;
      if (origin === undefined) return 'no Origin header';
      // https too: behind a TLS-terminating proxy the browser's origin is https while the console speaks http.
      const own = host === undefined ? [] : [`http://${host.toLowerCase()}`, `https://${host.toLowerCase()}`];
      if (!own.includes(origin.toLowerCase())) {
        return `Origin ${JSON.stringify(origin)} is not this console`;
      }
      return undefined;
    },
  };
}

const consolePolicy =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Headers on every console response: nothing but the console's own files runs, and no other site may frame it. */
export const securityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy': consolePolicy,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Not no-referrer: with it Chromium sends `Origin: null` on form posts, and the same-origin check needs the real one.
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'cache-control': 'no-store',
};

/**
 * The policy of a console page that may show views: the same, and frames only
 * from the view listener's origin, so a view frame that navigates itself
 * elsewhere is blocked rather than handed the messages meant for the view.
 */
export function pagePolicy(viewOrigin: string): Record<string, string> {
  return { 'content-security-policy': `${consolePolicy}; frame-src ${viewOrigin}` };
}
