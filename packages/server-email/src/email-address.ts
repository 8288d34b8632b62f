import { domainToASCII, domainToUnicode } from 'node:url';
import { findUnsafeCharacter } from './unsafe-characters.ts';

/** One mailbox, parsed strictly and put in the form it is compared and sent in. */
export interface EmailAddress {
  /** As delivered: the local part as written, the domain in lower-case ASCII (punycode). */
  readonly address: string;
  readonly localPart: string;
  /** Lower-case ASCII; `xn--` labels for international names. */
  readonly domain: string;
  /** The domain as people read it, when it is international. */
  readonly unicodeDomain: string;
  /** What the allowlist compares: the whole address in lower case. */
  readonly key: string;
  readonly name: string | undefined;
}

export type AddressParse = { ok: true; value: EmailAddress } | { ok: false; reason: string };

// RFC 5322 dot-atom without `%` and `!`: those route mail onwards through the
// receiving host (`user%evil.example@allowed.example`, bang paths), which an
// allowlist on the domain cannot see.
const localPartPattern = /^[A-Za-z0-9#$&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9#$&'*+/=?^_`{|}~-]+)*$/;
const labelPattern = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const bracketed = /^(?<name>[^<>]*)<(?<address>[^<>]*)>$/;
// Outside quotes a display name is plain words: no specials that would start
// a group, a comment, a second address or a route.
const plainName = /^[^"\\()<>[\]@,;:]*$/;
const quotedName = /^"(?<inner>[^"\\]*)"$/;

function refuse(reason: string): AddressParse {
  return { ok: false, reason };
}

/** A domain as it is compared: lower-case ASCII, every label valid, not an address literal. */
export function normalizeDomain(domain: string): { ok: true; ascii: string } | { ok: false; reason: string } {
  if (domain === '') return { ok: false, reason: 'has no domain after the @' };
  if (domain.startsWith('['))
    return { ok: false, reason: 'uses an IP address literal as its domain; use a domain name' };
  if (domain.endsWith('.')) return { ok: false, reason: 'ends its domain with a dot' };
  const ascii = domainToASCII(domain);
  if (ascii === '') return { ok: false, reason: `has a domain that is not a valid host name ("${domain}")` };
  const labels = ascii.split('.');
  if (labels.length < 2) return { ok: false, reason: `has a domain without a top-level part ("${domain}")` };
  if (ascii.length > 253 || !labels.every((label) => labelPattern.test(label))) {
    return { ok: false, reason: `has a domain that is not a valid host name ("${domain}")` };
  }
  if (/^[0-9]+$/.test(labels.at(-1) ?? '')) {
    return { ok: false, reason: 'uses an IP address as its domain; use a domain name' };
  }
  return { ok: true, ascii };
}

function parseMailbox(mailbox: string, name: string | undefined): AddressParse {
  const at = mailbox.lastIndexOf('@');
  if (at < 0) return refuse('has no @');
  const localPart = mailbox.slice(0, at);
  const domain = mailbox.slice(at + 1);
  if (localPart.includes('@')) return refuse('has more than one @');
  if (localPart.startsWith('"')) return refuse('uses a quoted local part; write the address without quotes');
  if (localPart.includes('%') || localPart.includes('!')) {
    return refuse('uses % or ! in its local part, which would route the mail on to another host');
  }
  if (localPart.length === 0 || localPart.length > 64 || !localPartPattern.test(localPart)) {
    return refuse('has a local part (before the @) that is not a plain ASCII mailbox name');
  }
  const normalized = normalizeDomain(domain);
  if (!normalized.ok) return refuse(normalized.reason);
  const address = `${localPart}@${normalized.ascii}`;
  if (address.length > 254) return refuse('is longer than 254 characters');
  return {
    ok: true,
    value: {
      address,
      localPart,
      domain: normalized.ascii,
      unicodeDomain: domainToUnicode(normalized.ascii),
      key: address.toLowerCase(),
      name,
    },
  };
}

function parseName(raw: string): { ok: true; name: string | undefined } | { ok: false; reason: string } {
  const trimmed = raw.trim();
  if (trimmed === '') return { ok: true, name: undefined };
  const quoted = quotedName.exec(trimmed);
  const name = quoted?.groups?.inner ?? (plainName.test(trimmed) ? trimmed : undefined);
  if (name === undefined) {
    return {
      ok: false,
      reason:
        'has a display name with quotes, brackets, commas, colons, semicolons or @; write "Name <address>" with a plain name',
    };
  }
  if (name.includes('@'))
    return { ok: false, reason: 'has an @ in its display name, which would show another address' };
  return { ok: true, name: name.trim() === '' ? undefined : name.trim() };
}

/**
 * Reads one recipient: `alice@example.com` or `Alice Doe <alice@example.com>`,
 * nothing else. Lists, groups, comments, routes, quoted local parts, IP
 * literals and control or invisible characters are refused rather than
 * interpreted, so what the allowlist checks is exactly what is delivered.
 */
export function parseEmailAddress(input: string): AddressParse {
  const unsafe = findUnsafeCharacter(input);
  if (unsafe !== undefined) return refuse(`contains ${unsafe}`);
  const text = input.trim();
  if (text === '') return refuse('is empty');
  if (text.length > 320) return refuse('is longer than 320 characters');
  const angle = bracketed.exec(text);
  if (angle?.groups !== undefined) {
    const name = parseName(angle.groups.name ?? '');
    if (!name.ok) return refuse(name.reason);
    const mailbox = (angle.groups.address ?? '').trim();
    if (mailbox.startsWith('@')) return refuse('uses a source route (<@host:address>)');
    if (/[\s,;:()"]/.test(mailbox)) return refuse('has spaces or punctuation inside the angle brackets');
    return parseMailbox(mailbox, name.name);
  }
  if (/[<>]/.test(text)) return refuse('has unbalanced angle brackets');
  if (/[,;]/.test(text)) return refuse('holds more than one address; give each recipient as its own list item');
  if (text.includes(':')) return refuse('uses group syntax (name: addresses;); list the addresses themselves');
  if (/[()]/.test(text)) return refuse('has a comment in parentheses; write the address alone');
  if (/\s/.test(text)) return refuse('has spaces; write "Name <address>" or the address alone');
  return parseMailbox(text, undefined);
}

/** How an address is written in messages to the model and the user. */
export function describeAddress(address: EmailAddress): string {
  const shown =
    address.unicodeDomain === address.domain ? address.address : `${address.address} (${address.unicodeDomain})`;
  return address.name === undefined ? shown : `${address.name} <${shown}>`;
}
