import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hostKeyAlgorithms, knownHostKeys, knownHostsName } from './known-hosts.ts';

const ed25519 = 'AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl';
const other = 'AAAAC3NzaC1lZDI1NTE5AAAAIBr3XwqDSJrx0P1ypsNyG3gYqSJt0QrTw4lu8f0Lq3Ul';

/** A hashed host field as `ssh-keygen -H` writes it. */
function hashed(name: string): string {
  const salt = randomBytes(20);
  return `|1|${salt.toString('base64')}|${createHmac('sha1', salt).update(name).digest('base64')}`;
}

const trustedFor = (text: string, name: string) =>
  knownHostKeys(text, name).trusted.map(({ blob }) => blob.toString('base64'));

describe('known_hosts lookup', () => {
  it('names a host as OpenSSH does: bare on port 22, [host]:port elsewhere', () => {
    expect(knownHostsName('bastion.example.com', 22)).toBe('bastion.example.com');
    expect(knownHostsName('10.0.0.1', 2222)).toBe('[10.0.0.1]:2222');
  });

  it.each([
    ['a plain entry', `bastion.example.com ssh-ed25519 ${ed25519}`, 'bastion.example.com', [ed25519]],
    ['one name of a list', `a.example,bastion.example.com,10.0.0.1 ssh-ed25519 ${ed25519}`, '10.0.0.1', [ed25519]],
    ['case-insensitively', `Bastion.Example.COM ssh-ed25519 ${ed25519}`, 'bastion.example.com', [ed25519]],
    ['a [host]:port entry', `[10.0.0.1]:2222 ssh-ed25519 ${ed25519}`, '[10.0.0.1]:2222', [ed25519]],
    ['not a [host]:port entry for port 22', `[10.0.0.1]:2222 ssh-ed25519 ${ed25519}`, '10.0.0.1', []],
    ['not a bare entry for another port', `10.0.0.1 ssh-ed25519 ${ed25519}`, '[10.0.0.1]:2222', []],
    ['a hashed entry', `${hashed('[10.0.0.1]:2222')} ssh-ed25519 ${ed25519}`, '[10.0.0.1]:2222', [ed25519]],
    ['not a hashed entry of another name', `${hashed('10.0.0.2')} ssh-ed25519 ${ed25519}`, '10.0.0.1', []],
    ['a wildcard', `*.example.com ssh-ed25519 ${ed25519}`, 'bastion.example.com', [ed25519]],
    ['a ? wildcard', `10.0.0.? ssh-ed25519 ${ed25519}`, '10.0.0.7', [ed25519]],
    ['not a dot taken as any character', `10.0.0.1 ssh-ed25519 ${ed25519}`, '10x0x0x1', []],
    ['not a negated name', `*.example.com,!bastion.example.com ssh-ed25519 ${ed25519}`, 'bastion.example.com', []],
    ['not a comment', `# bastion.example.com ssh-ed25519 ${ed25519}`, 'bastion.example.com', []],
    ['not a @cert-authority line', `@cert-authority *.example.com ssh-ed25519 ${ed25519}`, 'a.example.com', []],
    [
      'every key of the host, from every line',
      `bastion ssh-ed25519 ${ed25519}\r\nelsewhere ssh-ed25519 ${other}\nbastion ssh-ed25519 ${other} comment here`,
      'bastion',
      [ed25519, other],
    ],
  ])('finds %s', (_case, text, name, keys) => {
    expect(trustedFor(text, name)).toEqual(keys);
  });

  it('reads @revoked lines apart from the trusted ones', () => {
    const found = knownHostKeys(`@revoked * ssh-ed25519 ${other}\nbastion ssh-ed25519 ${ed25519}`, 'bastion');
    expect(found.revoked.map((blob) => blob.toString('base64'))).toEqual([other]);
    expect(found.trusted.map(({ type }) => type)).toEqual(['ssh-ed25519']);
  });

  it('offers the host key algorithms of the known keys, RSA as its SHA-2 signatures first', () => {
    expect(hostKeyAlgorithms(['ssh-ed25519', 'ssh-rsa', 'ssh-ed25519'])).toEqual([
      'ssh-ed25519',
      'rsa-sha2-512',
      'rsa-sha2-256',
      'ssh-rsa',
    ]);
  });
});
