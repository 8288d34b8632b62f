import type { AttachmentFile } from './attachment-files.ts';
import type { EmailAddress } from './email-address.ts';
import { allRecipients, type MessageDraft } from './message-draft.ts';

/** A message built to the byte, with the envelope it goes out in. */
export interface ComposedMessage {
  raw: Buffer;
  messageId: string;
  envelope: { from: string; to: string[] };
  /** The header block as sent (Bcc is never in it). */
  headers: { name: string; value: string }[];
}

function mailbox(address: EmailAddress): { name: string; address: string } {
  return { name: address.name ?? '', address: address.address };
}

/** Unfolds and splits the header block of a built message. */
function readHeaders(raw: Buffer): { name: string; value: string }[] {
  const end = raw.indexOf('\r\n\r\n');
  const block = raw.subarray(0, end < 0 ? raw.length : end).toString('utf8');
  return block
    .replace(/\r\n[ \t]/g, ' ')
    .split('\r\n')
    .map((line) => {
      const colon = line.indexOf(':');
      return { name: line.slice(0, colon), value: line.slice(colon + 1).trim() };
    });
}

/**
 * Builds the message with nodemailer's composer from checked parts only:
 * addresses as name/address pairs (never strings for it to re-parse),
 * attachments as bytes already read (file and URL access switched off, so
 * nothing in the message can make the composer fetch), our own Message-ID at
 * the sender's domain, and an envelope listing exactly the checked recipients.
 */
export async function composeMessage(
  draft: MessageDraft,
  sender: EmailAddress,
  attachments: readonly AttachmentFile[],
  date: Date = new Date(),
): Promise<ComposedMessage> {
  // Both load on the first message composed, so that neither is on the start-up path.
  const { randomUUID } = process.getBuiltinModule('node:crypto');
  const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
  const messageId = `<${randomUUID()}@${sender.domain}>`;
  const envelope = { from: sender.address, to: allRecipients(draft).map((address) => address.address) };
  const composer = new MailComposer({
    from: mailbox(sender),
    to: draft.to.map(mailbox),
    ...(draft.cc.length > 0 ? { cc: draft.cc.map(mailbox) } : {}),
    ...(draft.replyTo === undefined ? {} : { replyTo: mailbox(draft.replyTo) }),
    subject: draft.subject,
    ...(draft.text === undefined || draft.text === '' ? {} : { text: draft.text }),
    ...(draft.html === undefined || draft.html === '' ? {} : { html: draft.html }),
    ...(draft.inReplyTo === undefined ? {} : { inReplyTo: draft.inReplyTo }),
    ...(draft.references.length > 0 ? { references: draft.references } : {}),
    attachments: attachments.map((file) => ({ filename: file.filename, content: file.content })),
    messageId,
    date,
    envelope,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const raw = await composer.compile().build();
  return { raw, messageId, envelope, headers: readHeaders(raw) };
}
