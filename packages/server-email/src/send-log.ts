import type { EmailAddress } from './email-address.ts';
import type { EmailServerContext } from './email-server-context.ts';
import type { RecipientLogging, SendLogEntry } from './email-server-options.ts';
import { allRecipients, type MessageDraft } from './message-draft.ts';

/** A recipient as the log shows it: a stable pseudonym, the domain alone, or the address. */
export function loggedRecipient(address: EmailAddress, logging: RecipientLogging): string {
  if (logging === 'full') return address.address;
  if (logging === 'domain') return `…@${address.domain}`;
  // Loaded here, not imported, to keep node:crypto off the start-up path.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return `sha256:${createHash('sha256').update(address.key).digest('hex').slice(0, 16)}`;
}

/** The default sink: one JSON line on stderr, which MCP clients keep as the server's log. */
export function writeSendLogLine(entry: SendLogEntry): void {
  process.stderr.write(`${JSON.stringify({ source: 'toolshed-email', ...entry })}\n`);
}

/** Writes one entry about a message to the server's send log, recipients shown as the operator chose. */
export function logSend(
  context: EmailServerContext,
  draft: MessageDraft,
  entry: Pick<SendLogEntry, 'event' | 'attachments' | 'durationMs'> & Partial<SendLogEntry>,
): void {
  context.log({
    time: new Date().toISOString(),
    delivery: context.delivery.kind,
    recipients: allRecipients(draft).map((address) => loggedRecipient(address, context.logRecipients)),
    ...entry,
  });
}
