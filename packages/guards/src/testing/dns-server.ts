import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { ipv6Bytes } from '../ip-address-ranges.ts';

/** What a name answers: MX, A and AAAA records, or a scripted failure. */
export interface DnsZoneEntry {
  mx?: [preference: number, exchange: string][];
  a?: string[];
  aaaa?: string[];
  fail?: 'servfail';
}

export interface DnsServer {
  /** `127.0.0.1:PORT`, for `dnsServers`. */
  server: string;
  queries: { name: string; type: number }[];
  close(): Promise<void>;
}

const typeA = 1;
const typeMx = 15;
const typeAaaa = 28;

function encodeName(name: string): Buffer {
  const labels = name === '' ? [] : name.split('.');
  return Buffer.concat([
    ...labels.map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label, 'ascii')])),
    Buffer.from([0]),
  ]);
}

function readQuestion(query: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let offset = 12;
  for (let length = query[offset] ?? 0; length > 0; length = query[offset] ?? 0) {
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString('ascii'));
    offset += length + 1;
  }
  return { name: labels.join('.').toLowerCase(), type: query.readUInt16BE(offset + 1), end: offset + 5 };
}

function record(type: number, data: Buffer): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
  header.writeUInt16BE(type, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt32BE(60, 6);
  header.writeUInt16BE(data.length, 10);
  return Buffer.concat([header, data]);
}

/**
 * A real DNS server on UDP 127.0.0.1 answering MX, A and AAAA queries from a
 * zone table: NXDOMAIN for names it does not know, no data for known names
 * without the type asked, SERVFAIL where scripted. Point a resolver at
 * `server` to test what a name that resolves to a given address does.
 *
 * @example
 * const dns = await startDnsServer({ 'rebind.test': { a: ['127.0.0.1'] } });
 * const resolver = new Resolver(); resolver.setServers([dns.server]);
 */
export async function startDnsServer(zone: Record<string, DnsZoneEntry>): Promise<DnsServer> {
  const socket = createSocket('udp4');
  const queries: { name: string; type: number }[] = [];
  socket.on('message', (query, peer) => {
    const question = readQuestion(query);
    queries.push({ name: question.name, type: question.type });
    const entry = zone[question.name];
    let rcode = 0;
    let answers: Buffer[] = [];
    if (entry === undefined) rcode = 3;
    else if (entry.fail === 'servfail') rcode = 2;
    else if (question.type === typeMx) {
      answers = (entry.mx ?? []).map(([preference, exchange]) => {
        const preferenceBytes = Buffer.alloc(2);
        preferenceBytes.writeUInt16BE(preference);
        return record(typeMx, Buffer.concat([preferenceBytes, encodeName(exchange)]));
      });
    } else if (question.type === typeA) {
      answers = (entry.a ?? []).map((address) => record(typeA, Buffer.from(address.split('.').map(Number))));
    } else if (question.type === typeAaaa) {
      answers = (entry.aaaa ?? []).map((address) => record(typeAaaa, Buffer.from(ipv6Bytes(address) ?? [])));
    }
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8180 | rcode, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, query.subarray(12, question.end), ...answers]), peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return {
    server: `127.0.0.1:${(socket.address() as AddressInfo).port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
