import type { LookupAddress } from 'node:dns';
import type { Resolver } from 'node:dns/promises';
import { ToolError } from '@toolshed/mcp-core';
import { classifyAddress } from './ip-address-ranges.ts';
import { hostKey } from './outbound-url.ts';

export interface GuardedLookupOptions {
  /** Ask these DNS servers (`IP` or `IP:PORT`) instead of the system resolver. */
  dnsServers?: readonly string[] | undefined;
  /** Names whose addresses are not checked: hosts the operator put on a private network on purpose. */
  trustedHosts?: readonly string[] | undefined;
}

/** The shape `net.connect`, `http.request` and undici's `connect` take as `lookup`. */
export type LookupFunction = (
  hostname: string,
  options: { all?: boolean | undefined; family?: number | string | undefined },
  callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
) => void;

/** A name that resolves into a reserved range: refused before any connection. */
function blocked(hostname: string, address: string, reason: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new ToolError(
    `${hostname} resolves to ${address}, a ${reason} address, which this server does not fetch from.`,
  );
  error.code = 'EADDRBLOCKED';
  return error;
}

async function resolveAll(hostname: string, resolver: Resolver | undefined): Promise<LookupAddress[]> {
  // node:net and node:dns are loaded where used, not imported, to keep them off every server's start-up path.
  const { isIP } = process.getBuiltinModule('node:net');
  if (isIP(hostname) !== 0) return [{ address: hostname, family: isIP(hostname) }];
  if (resolver === undefined) {
    return process.getBuiltinModule('node:dns/promises').lookup(hostname, { all: true, verbatim: true });
  }
  const answers = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
  const addresses = answers.flatMap((answer, index) =>
    answer.status === 'fulfilled' ? answer.value.map((address) => ({ address, family: index === 0 ? 4 : 6 })) : [],
  );
  if (addresses.length === 0) {
    const error: NodeJS.ErrnoException = new Error(`${hostname} does not resolve`);
    error.code = 'ENOTFOUND';
    throw error;
  }
  return addresses;
}

/**
 * A DNS lookup for outbound connections that refuses a name when *any* of
 * its addresses is in a reserved range (loopback, private, link-local, cloud
 * metadata…), and otherwise hands the connection exactly the addresses it
 * checked. Because the check and the connection use the same answer, a name
 * that answers differently the second time (DNS rebinding) gains nothing.
 * Give it to undici (`new Agent({ connect: { lookup } })`) or `http.request`.
 *
 * @example
 * const agent = new Agent({ connect: { lookup: createGuardedLookup() } });
 */
export function createGuardedLookup(options: GuardedLookupOptions = {}): LookupFunction {
  let resolver: Resolver | undefined;
  if (options.dnsServers !== undefined && options.dnsServers.length > 0) {
    resolver = new (process.getBuiltinModule('node:dns/promises').Resolver)({ timeout: 5_000, tries: 2 });
    resolver.setServers([...options.dnsServers]);
  }
  const trusted = new Set((options.trustedHosts ?? []).map(hostKey));
  return (hostname, lookupOptions, callback) => {
    const name = hostname.replace(/^\[|\]$/g, '');
    resolveAll(name, resolver).then(
      (addresses) => {
        for (const { address } of trusted.has(hostKey(name)) ? [] : addresses) {
          const reason = classifyAddress(address);
          if (reason !== undefined) {
            callback(blocked(name, address, reason), '');
            return;
          }
        }
        const family =
          lookupOptions.family === 6 || lookupOptions.family === 'IPv6'
            ? 6
            : lookupOptions.family === 4 || lookupOptions.family === 'IPv4'
              ? 4
              : 0;
        const usable = family === 0 ? addresses : addresses.filter((address) => address.family === family);
        const first = usable[0];
        if (first === undefined) {
          const error: NodeJS.ErrnoException = new Error(`${name} has no IPv${family} address`);
          error.code = 'ENOTFOUND';
          callback(error, '');
          return;
        }
        if (lookupOptions.all === true) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
