import { createHmac, timingSafeEqual } from 'node:crypto';

/** The keys a known_hosts file holds for one host: those it trusts, and those it says are revoked. */
export interface KnownHostKeys {
  /** Key blobs (the base64 field, decoded) with their types: `ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256`… */
  trusted: { type: string; blob: Buffer }[];
  /** Key blobs marked `@revoked`: refused wherever they are offered. */
  revoked: Buffer[];
}

/**
 * How known_hosts names a host: `host` on port 22, `[host]:port` elsewhere,
 * as OpenSSH writes and looks it up.
 */
export function knownHostsName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

/** `|1|salt|hash`: HMAC-SHA1 of the name keyed by the salt, as `HashKnownHosts yes` writes it. */
function matchesHashed(pattern: string, name: string): boolean {
  const [, version, salt, hash] = pattern.split('|');
  if (version !== '1' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** A glob of `*` and `?`, case-insensitive, as host patterns are. */
function matchesGlob(pattern: string, name: string): boolean {
  const expression = pattern
    .split('')
    .map((character) =>
      character === '*' ? '.*' : character === '?' ? '.' : character.replace(/[\\^$.|+()[\]{}]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${expression}$`, 'i').test(name);
}

/**
 * Whether a line's host field names the host: one of its comma-separated
 * patterns matches and none of its `!` patterns does (ssh(8), SSH_KNOWN_HOSTS
 * FILE FORMAT).
 */
function hostFieldMatches(field: string, name: string): boolean {
  if (field.startsWith('|')) return matchesHashed(field, name);
  let matched = false;
  for (const pattern of field.split(',')) {
    if (pattern.startsWith('!')) {
      if (matchesGlob(pattern.slice(1), name)) return false;
    } else if (matchesGlob(pattern, name)) matched = true;
  }
  return matched;
}

/**
 * The keys a known_hosts file's text holds for `name` (see `knownHostsName`):
 * plain and hashed host fields, wildcard and negated patterns, and
 * `@revoked` lines. `@cert-authority` lines are left out: host certificates
 * are not supported, so only a host's own key is ever trusted.
 */
export function knownHostKeys(text: string, name: string): KnownHostKeys {
  const found: KnownHostKeys = { trusted: [], revoked: [] };
  for (const line of text.split(/\r?\n/)) {
    const fields = line.trim().split(/\s+/);
    if (fields[0] === undefined || fields[0] === '' || fields[0].startsWith('#')) continue;
    const marker = fields[0].startsWith('@') ? fields.shift() : undefined;
    const [hosts, type, key] = fields;
    if (hosts === undefined || type === undefined || key === undefined || !hostFieldMatches(hosts, name)) continue;
    const blob = Buffer.from(key, 'base64');
    if (marker === '@revoked') found.revoked.push(blob);
    else if (marker === undefined) found.trusted.push({ type, blob });
  }
  return found;
}

/** The host key algorithms to offer for keys of these types, so that the bastion shows the key known_hosts holds. */
export function hostKeyAlgorithms(types: readonly string[]): string[] {
  const algorithms = types.flatMap((type) =>
    type === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [type],
  );
  return [...new Set(algorithms)];
}
