import { ToolError } from '@toolshed/mcp-core';
import { classifyAddress } from './ip-address-ranges.ts';

export interface OutboundUrlOptions {
  /** Default: `['http:', 'https:']`. */
  schemes?: readonly string[] | undefined;
  /**
   * Host names (or IP literals) the operator trusts to be on a private
   * network — an intranet image store, say. Only these exact hosts skip the
   * address check; a redirect or a name resolving elsewhere is checked as usual.
   */
  trustedHosts?: readonly string[] | undefined;
}

/** The canonical form hosts are compared in: lower case, no brackets, no trailing dot. */
export function hostKey(host: string): string {
  return host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}

/**
 * Checks a URL a server is about to fetch on a model's behalf, before any
 * connection: a scheme on the list (never `file:`, `data:`, `gopher:`…), no
 * credentials in it, and a host that is not an address in a reserved range.
 * The WHATWG parser has already turned decimal, hex, octal and short IPv4
 * forms (`2130706433`, `0x7f.1`, `0177.0.0.1`) into dotted quads, so they
 * are judged as the address they are. Names are checked when they are
 * resolved, by {@link createGuardedLookup}; call this again on every redirect.
 *
 * @example
 * const url = checkOutboundUrl('http://0x7f.1/'); // ToolError: … loopback
 */
export function checkOutboundUrl(input: string | URL, options: OutboundUrlOptions = {}): URL {
  const schemes = options.schemes ?? ['http:', 'https:'];
  const url = typeof input === 'string' ? URL.parse(input) : input;
  if (url === null) throw new ToolError(`"${String(input).slice(0, 200)}" is not a URL.`);
  if (!schemes.includes(url.protocol)) {
    throw new ToolError(`URLs with the ${url.protocol} scheme cannot be fetched; use ${schemes.join(' or ')}.`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ToolError('URLs with a user name or password in them cannot be fetched.');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') throw new ToolError('The URL has no host.');
  // node:net is loaded here, not imported, to keep it off every server's start-up path.
  const { isIP } = process.getBuiltinModule('node:net');
  if (isIP(host) !== 0 && !(options.trustedHosts ?? []).map(hostKey).includes(hostKey(host))) {
    const reason = classifyAddress(host);
    if (reason !== undefined)
      throw new ToolError(`${url.host} is a ${reason} address, which this server does not fetch from.`);
  }
  return url;
}
