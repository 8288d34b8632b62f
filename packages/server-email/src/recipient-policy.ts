import { LocalError } from '@toolshed/mcp-core';
import { type EmailAddress, normalizeDomain, parseEmailAddress } from './email-address.ts';

/** Who may receive mail: exact addresses, whole domains, or subdomains of a domain. */
export interface RecipientPolicy {
  /** The reason an address is refused, or undefined when it may receive mail. */
  refusal(address: EmailAddress): string | undefined;
  /** The rule in words, for previews and errors. */
  readonly description: string;
}

/**
 * The operator's allowlist. Entries: `alice@example.com` (that mailbox; the
 * local part compared without regard to case, nothing else loosened — not
 * `alice+tag@`, not `a.lice@`), `example.com` or `@example.com` (any mailbox
 * at exactly that domain), `*.example.com` (any mailbox at a subdomain, not
 * the domain itself). International domains match in either spelling. With
 * no entries, only the sender's own address; `allowAny` lifts the rule.
 */
export function createRecipientPolicy(
  entries: readonly string[],
  sender: EmailAddress,
  allowAny: boolean,
): RecipientPolicy {
  if (allowAny) return { refusal: () => undefined, description: 'any recipient (the operator lifted the allowlist)' };
  const addresses = new Set<string>();
  const domains = new Set<string>();
  const parentDomains: string[] = [];
  for (const entry of entries) {
    const text = entry.trim();
    if (text.startsWith('*.')) {
      const domain = normalizeDomain(text.slice(2));
      if (!domain.ok) throw new LocalError('config_invalid', `Allowlist entry "${entry}" ${domain.reason}`);
      parentDomains.push(domain.ascii);
    } else if (text.includes('@') && !text.startsWith('@')) {
      const address = parseEmailAddress(text);
      if (!address.ok || address.value.name !== undefined) {
        throw new LocalError('config_invalid', `Allowlist entry "${entry}" is not a plain address`);
      }
      addresses.add(address.value.key);
    } else {
      const domain = normalizeDomain(text.replace(/^@/, ''));
      if (!domain.ok) throw new LocalError('config_invalid', `Allowlist entry "${entry}" ${domain.reason}`);
      domains.add(domain.ascii);
    }
  }
  if (addresses.size + domains.size + parentDomains.length === 0) {
    return {
      refusal: (address) =>
        address.key === sender.key
          ? undefined
          : `is not the sender's own address; with no allowlist configured, mail goes only to ${sender.address}`,
      description: `only the sender's own address (${sender.address}); the operator has configured no allowlist`,
    };
  }
  const listed = [
    ...addresses,
    ...[...domains].map((domain) => `@${domain}`),
    ...parentDomains.map((domain) => `*.${domain}`),
  ];
  return {
    refusal(address) {
      if (addresses.has(address.key) || domains.has(address.domain)) return undefined;
      if (parentDomains.some((parent) => address.domain.endsWith(`.${parent}`))) return undefined;
      return 'is not on the recipient allowlist';
    },
    description: `the allowlist: ${listed.join(', ')}`,
  };
}
