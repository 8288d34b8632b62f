import { type DnsServer, startDnsServer } from '@toolshed/guards/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EmailHarness, startEmailHarness, textOf } from './__fixtures__/email-harness.ts';

let dns: DnsServer;
let harness: EmailHarness;

beforeAll(async () => {
  dns = await startDnsServer({
    'example.com': {
      mx: [
        [20, 'mx2.example.com'],
        [10, 'mx1.example.com'],
      ],
    },
    'partner.test': { a: ['192.0.2.10'] },
    'nomail.test': { mx: [[0, '']] },
    'empty.test': {},
    'broken.test': { fail: 'servfail' },
    'xn--bcher-kva.de': { mx: [[10, 'mail.xn--bcher-kva.de']] },
  });
  harness = await startEmailHarness({
    smtp: false,
    server: () => ({ allowRecipients: ['example.com', '*.partner.test', 'bücher.de'], dnsServers: [dns.server] }),
  });
});

afterAll(async () => {
  await harness.close();
  await dns.close();
});

type Row = {
  input: string;
  valid: boolean;
  allowed: boolean;
  address: string | null;
  problems: string[];
  domain: { mail: string; hosts: string[]; unicode: string } | null;
};

async function validate(addresses: string[], checkDomains = true): Promise<Row[]> {
  const result = await harness.call('validate_recipients', { addresses, check_domains: checkDomains });
  expect(result.isError).toBeFalsy();
  return result.structuredContent?.results as Row[];
}

describe('validate_recipients', () => {
  it('reads syntax, the allowlist and the domain mail records for each address', async () => {
    const rows = await validate([
      'Bob <bob@example.com>',
      'ann@sales.partner.test',
      'ann@partner.test',
      'info@nomail.test',
      'who@empty.test',
      'who@unknown-domain.test',
      'who@broken.test',
      'two@example.com, three@example.com',
    ]);
    expect(rows.map((row) => [row.valid, row.allowed, row.domain?.mail ?? null])).toEqual([
      [true, true, 'mx'],
      [true, true, 'none'],
      [true, false, 'implicit'],
      [true, false, 'null_mx'],
      [true, false, 'none'],
      [true, false, 'none'],
      [true, false, 'unknown'],
      [false, false, null],
    ]);
    expect(rows[0]?.domain?.hosts).toEqual(['mx1.example.com', 'mx2.example.com']);
    expect(rows[3]?.problems.join(' ')).toMatch(/null MX: it accepts no mail/);
    expect(rows[5]?.problems.join(' ')).toMatch(/does not exist in DNS/);
    expect(rows[7]?.problems.join(' ')).toMatch(/holds more than one address/);
    expect(rows[2]?.problems.join(' ')).toMatch(/not on the recipient allowlist/);
  });

  it('shows international domains in both spellings and warns about look-alikes', async () => {
    const rows = await validate(['kurt@bücher.de', 'kurt@b\u00fccher.de'.normalize('NFD')]);
    expect(rows[0]).toMatchObject({
      valid: true,
      allowed: true,
      address: 'kurt@xn--bcher-kva.de',
      domain: { mail: 'mx', unicode: 'bücher.de' },
    });
    expect(rows[0]?.problems.join(' ')).toMatch(/international: bücher\.de is sent as xn--bcher-kva\.de/);
    expect(rows[1]?.address).toBe('kurt@xn--bcher-kva.de');
  });

  it('asks DNS once per domain, and not at all when told not to', async () => {
    const before = dns.queries.length;
    await validate(['a@example.com', 'b@example.com', 'c@EXAMPLE.com']);
    expect(dns.queries.slice(before).filter((query) => query.name === 'example.com')).toHaveLength(1);
    const after = dns.queries.length;
    const rows = await validate(['a@example.com'], false);
    expect(dns.queries.length).toBe(after);
    expect(rows[0]?.domain?.mail).toBe('not_checked');
  });

  it('quotes hostile input back without its control characters', async () => {
    const result = await harness.call('validate_recipients', {
      addresses: ['eve@evil.test\r\nBcc: x@y.z'],
      check_domains: false,
    });
    expect(textOf(result)).not.toMatch(/\r|\n-? ?Bcc/);
    expect((result.structuredContent?.results as Row[] | undefined)?.[0]?.input).toBe(
      'eve@evil.test\\u000D\\u000ABcc: x@y.z',
    );
  });
});
