import { describeAddress, type EmailAddress } from './email-address.ts';
import type { PreparedMessage } from './prepare-message.ts';

const bodyExcerptLength = 300;

function line(label: string, addresses: readonly EmailAddress[]): string[] {
  return addresses.length === 0 ? [] : [`${label}: ${addresses.map(describeAddress).join(', ')}`];
}

/**
 * The question the user answers. Every header line comes from checked values
 * (no line breaks can hide in them), international domains are shown in both
 * spellings, and the body excerpt comes last, on one line, in quotes: text in
 * the body cannot pass itself off as a header of the message being approved.
 */
export function confirmationMessage(sender: EmailAddress, prepared: PreparedMessage, sizeBytes: number): string {
  const { draft } = prepared;
  const body = (draft.text ?? draft.html?.replace(/<[^>]*>/g, ' ') ?? '').replace(/\s+/g, ' ').trim();
  const excerpt = body.length > bodyExcerptLength ? `${body.slice(0, bodyExcerptLength)}…` : body;
  return [
    'Send this email?',
    `From: ${describeAddress(sender)}`,
    ...line('To', draft.to),
    ...line('Cc', draft.cc),
    ...line('Bcc', draft.bcc),
    ...(draft.replyTo === undefined ? [] : [`Reply-To: ${describeAddress(draft.replyTo)}`]),
    `Subject: ${draft.subject}`,
    prepared.attachments.length === 0
      ? 'Attachments: none'
      : `Attachments: ${prepared.attachments.map((file) => `${file.name} (${file.bytes} bytes)`).join(', ')}`,
    `Size: ${sizeBytes} bytes`,
    `Body begins: "${excerpt}"`,
  ].join('\n');
}
