import { defineTool, structuredResult, type Tool, textContent } from '@toolshed/mcp-core';
import * as z from 'zod';
import { createDomainChecker, type DomainMail } from './domain-check.ts';
import { parseEmailAddress } from './email-address.ts';
import type { EmailServerContext } from './email-server-context.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { printable } from './unsafe-characters.ts';

/** validate_recipients: syntax, the allowlist and the domain's mail records, for each address, sending nothing. */
export function createValidateRecipientsTool(context: EmailServerContext): Tool {
  const checkDomain = createDomainChecker(context.dnsServers);
  return defineTool({
    name: 'validate_recipients',
    title: 'Validate recipients',
    description: 'Check addresses without sending: syntax, the allowlist, MX of the domain.',
    input: () =>
      z.object({
        // Sizes are checked, not advertised: each would cost tokens on every turn.
        addresses: z
          .array(z.string())
          .refine((addresses) => addresses.length >= 1 && addresses.length <= 50, '1 to 50 addresses')
          .describe('One per item'),
        check_domains: z.boolean().default(true).describe('Look up MX records'),
      }),
    output: () =>
      z.object({
        results: z.array(
          z.object({
            input: z.string(),
            valid: z.boolean().describe('A single, well-formed address'),
            address: z
              .string()
              .nullable()
              .describe('The address as it would be sent (international domains in punycode)'),
            allowed: z.boolean().describe('This server may send to it'),
            problems: z.array(z.string()),
            domain: z
              .object({
                name: z.string(),
                unicode: z.string(),
                mail: z.enum(['mx', 'implicit', 'null_mx', 'none', 'unknown', 'not_checked']),
                hosts: z.array(z.string()),
                detail: z.string(),
              })
              .nullable(),
          }),
        ),
        recipient_rule: z.string(),
      }),
    jsonSchemas: toolJsonSchemas.validate_recipients,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run({ addresses, check_domains: checkDomains }, call) {
      const lookups = new Map<string, Promise<DomainMail>>();
      const results = await Promise.all(
        addresses.map(async (input) => {
          const parsed = parseEmailAddress(input);
          if (!parsed.ok) {
            return {
              input: printable(input),
              valid: false,
              address: null,
              allowed: false,
              problems: [`The address ${parsed.reason}`],
              domain: null,
            };
          }
          const address = parsed.value;
          const problems: string[] = [];
          const refusal = context.policy.refusal(address);
          if (refusal !== undefined) problems.push(`${address.address} ${refusal}`);
          if (address.unicodeDomain !== address.domain) {
            problems.push(
              `The domain is international: ${address.unicodeDomain} is sent as ${address.domain}. Check it is the domain meant, letter for letter (look-alike letters from other scripts make a different domain).`,
            );
          }
          let mail: DomainMail = { status: 'unknown', hosts: [], detail: 'Not checked' };
          if (checkDomains) {
            call.signal.throwIfAborted();
            let lookup = lookups.get(address.domain);
            if (lookup === undefined) {
              lookup = checkDomain(address.domain);
              lookups.set(address.domain, lookup);
            }
            mail = await lookup;
            if (mail.status === 'none' || mail.status === 'null_mx') problems.push(mail.detail);
          }
          return {
            input,
            valid: true,
            address: address.address,
            allowed: refusal === undefined,
            problems,
            domain: {
              name: address.domain,
              unicode: address.unicodeDomain,
              mail: checkDomains ? mail.status : ('not_checked' as const),
              hosts: mail.hosts,
              detail: mail.detail,
            },
          };
        }),
      );
      const allowed = results.filter((result) => result.allowed).length;
      const summary = `${allowed} of ${results.length} addresses may receive mail from this server.${results
        .filter((result) => result.problems.length > 0)
        .map((result) => `\n- ${result.input}: ${result.problems.join(' ')}`)
        .join('')}`;
      return structuredResult(
        { results, recipient_rule: context.policy.description },
        { content: [textContent(summary)] },
      );
    },
  });
}
