import type { Resolver } from 'node:dns/promises';

/** What DNS says about a domain's mail. */
export interface DomainMail {
  /**
   * `mx`: mail servers listed. `implicit`: no MX but an address record, which
   * SMTP delivers to (RFC 5321 §5.1). `null_mx`: the domain says it takes no
   * mail (RFC 7505). `none`: the domain does not exist or has no address.
   * `unknown`: DNS did not answer.
   */
  status: 'mx' | 'implicit' | 'null_mx' | 'none' | 'unknown';
  hosts: string[];
  detail: string;
}

const lookupTimeoutMs = 3_000;

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? 'EUNKNOWN';
}

async function hasAddress(resolver: Resolver, domain: string): Promise<boolean | undefined> {
  const answers = await Promise.allSettled([resolver.resolve4(domain), resolver.resolve6(domain)]);
  if (answers.some((answer) => answer.status === 'fulfilled' && answer.value.length > 0)) return true;
  const missing = answers.every(
    (answer) => answer.status === 'rejected' && ['ENODATA', 'ENOTFOUND'].includes(code(answer.reason)),
  );
  return missing ? false : undefined;
}

/** Looks up where a domain's mail goes, once per domain per call, each lookup bounded in time. */
export function createDomainChecker(servers: readonly string[] | undefined): (domain: string) => Promise<DomainMail> {
  let resolver: Resolver | undefined;
  const create = (): Resolver => {
    // Loaded here, not imported, to keep node:dns off the start-up path.
    const dns = process.getBuiltinModule('node:dns/promises');
    const created = new dns.Resolver({ timeout: lookupTimeoutMs, tries: 1 });
    if (servers !== undefined && servers.length > 0) created.setServers([...servers]);
    return created;
  };
  // Servers named by the operator are checked now, so a wrong address fails at start as it always has.
  if (servers !== undefined && servers.length > 0) resolver = create();
  return async (domain) => {
    resolver ??= create();
    const lookup = resolver;
    try {
      const records = (await lookup.resolveMx(domain)).sort((left, right) => left.priority - right.priority);
      if (records.length === 1 && (records[0]?.exchange === '' || records[0]?.exchange === '.')) {
        return { status: 'null_mx', hosts: [], detail: `${domain} publishes a null MX: it accepts no mail` };
      }
      const hosts = records.map((record) => record.exchange);
      return { status: 'mx', hosts, detail: `Mail for ${domain} goes to ${hosts.slice(0, 3).join(', ')}` };
    } catch (error) {
      if (code(error) === 'ENOTFOUND') {
        return { status: 'none', hosts: [], detail: `${domain} does not exist in DNS` };
      }
      if (code(error) !== 'ENODATA') {
        return { status: 'unknown', hosts: [], detail: `DNS did not answer for ${domain} (${code(error)})` };
      }
    }
    const address = await hasAddress(lookup, domain);
    if (address === true) {
      return {
        status: 'implicit',
        hosts: [domain],
        detail: `${domain} has no MX record; mail goes to its own address`,
      };
    }
    if (address === false) return { status: 'none', hosts: [], detail: `${domain} has no MX and no address record` };
    return { status: 'unknown', hosts: [], detail: `DNS did not answer for ${domain}` };
  };
}
