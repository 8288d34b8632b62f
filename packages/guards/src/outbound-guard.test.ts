import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedLookup } from './guarded-lookup.ts';
import { classifyAddress } from './ip-address-ranges.ts';
import { checkOutboundUrl } from './outbound-url.ts';
import { type DnsServer, startDnsServer } from './testing/dns-server.ts';

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'this network'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared address space (carrier-grade NAT)'],
    ['169.254.169.254', 'cloud metadata'],
    ['169.254.0.1', 'link-local'],
    ['192.0.0.192', 'IETF protocol assignments'],
    ['198.18.0.1', 'benchmarking'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'cloud metadata'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::169.254.169.254', 'cloud metadata'],
    ['2002:c0a8:0101::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique local (private)'],
    ['fd00:ec2::254', 'cloud metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
  ])('%s is %s', (address, reason) => {
    expect(classifyAddress(address)).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:0808:0808::1',
  ])('%s is public', (address) => {
    expect(classifyAddress(address)).toBeUndefined();
  });
});

describe('checkOutboundUrl', () => {
  it.each([
    ['http://127.0.0.1/', /loopback/],
    ['http://[::1]/', /loopback/],
    ['http://0.0.0.0/', /this network/],
    ['http://169.254.169.254/latest/meta-data/', /cloud metadata/],
    ['http://10.1.2.3/', /private/],
    ['http://2130706433/', /loopback/],
    ['http://0x7f000001/', /loopback/],
    ['http://0x7f.1/', /loopback/],
    ['http://0177.0.0.1/', /loopback/],
    ['http://127.1/', /loopback/],
    ['http://[::ffff:127.0.0.1]/', /loopback/],
    ['http://[::ffff:a9fe:a9fe]/', /cloud metadata/],
    ['http://[fd00:ec2::254]/', /cloud metadata/],
    ['file:///etc/passwd', /file: scheme cannot be fetched/],
    ['data:image/png;base64,AAAA', /data: scheme cannot be fetched/],
    ['gopher://127.0.0.1:6379/_FLUSHALL', /gopher: scheme cannot be fetched/],
    ['ftp://example.com/x', /ftp: scheme cannot be fetched/],
    ['http://user:pass@example.com/', /user name or password/],
    ['not a url', /is not a URL/],
  ])('refuses %s', (url, message) => {
    expect(() => checkOutboundUrl(url)).toThrow(message);
  });

  it('passes public addresses and names (names are checked when they resolve)', () => {
    expect(checkOutboundUrl('https://example.com/a.png').hostname).toBe('example.com');
    expect(checkOutboundUrl('http://8.8.8.8/').hostname).toBe('8.8.8.8');
    expect(checkOutboundUrl('http://localhost/').hostname).toBe('localhost');
  });
});

describe('createGuardedLookup: the connection gets only the addresses that were checked', () => {
  let target: Server;
  let port: number;
  let hits = 0;
  let dns: DnsServer;

  beforeAll(async () => {
    target = createServer((_request, response) => {
      hits += 1;
      response.end('secret');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    port = (target.address() as AddressInfo).port;
    dns = await startDnsServer({
      'loopback.test': { a: ['127.0.0.1'] },
      'loopback6.test': { aaaa: ['::1'] },
      'metadata.test': { a: ['169.254.169.254'] },
      'private.test': { a: ['192.168.0.10'] },
      'mapped.test': { aaaa: ['::ffff:127.0.0.1'] },
      'mixed.test': { a: ['93.184.215.14', '127.0.0.1'] },
      'public.test': { a: ['93.184.215.14'] },
    });
  });

  afterAll(async () => {
    await new Promise((resolve) => target.close(resolve));
    await dns.close();
  });

  function fetchThrough(host: string, lookup = createGuardedLookup({ dnsServers: [dns.server] })): Promise<string> {
    return new Promise((resolve, reject) => {
      const request = get({ host, port, path: '/', lookup: lookup as never, timeout: 2_000 }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        response.on('end', () => resolve(body));
      });
      request.on('error', reject);
      request.on('timeout', () => request.destroy(new Error('timeout')));
    });
  }

  it.each([
    ['loopback.test', /loopback.test resolves to 127\.0\.0\.1, a loopback address/],
    ['loopback6.test', /resolves to ::1, a loopback address/],
    ['metadata.test', /resolves to 169\.254\.169\.254, a cloud metadata address/],
    ['private.test', /resolves to 192\.168\.0\.10, a private address/],
    ['mapped.test', /resolves to ::ffff:127\.0\.0\.1, a loopback address/],
    ['mixed.test', /resolves to 127\.0\.0\.1/],
  ])('refuses %s before connecting', async (host, message) => {
    const before = hits;
    await expect(fetchThrough(host)).rejects.toThrow(message);
    expect(hits).toBe(before);
  });

  it('refuses localhost through the system resolver', async () => {
    const before = hits;
    await expect(fetchThrough('localhost', createGuardedLookup())).rejects.toThrow(/localhost resolves to .*loopback/);
    expect(hits).toBe(before);
  });

  it('lets the same request through when the lookup is not guarded (the test target is real)', async () => {
    await expect(fetchThrough('127.0.0.1', undefined as never)).resolves.toBe('secret');
  });

  it('hands a public name its checked address, and says when a name does not resolve', async () => {
    const lookup = createGuardedLookup({ dnsServers: [dns.server] });
    const answer = await new Promise<unknown>((resolve, reject) =>
      lookup('public.test', { all: true }, (error, addresses) => (error === null ? resolve(addresses) : reject(error))),
    );
    expect(answer).toEqual([{ address: '93.184.215.14', family: 4 }]);
    await expect(fetchThrough('nowhere.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});
