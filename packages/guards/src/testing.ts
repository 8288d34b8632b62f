/**
 * Test helpers for the outbound guards: a real DNS server on 127.0.0.1 that
 * answers from a zone table, for resolvers given `dnsServers`.
 *
 * @module
 */
export { type DnsServer, type DnsZoneEntry, startDnsServer } from './testing/dns-server.ts';
