import { untrustedLine } from '@toolshed/guards';
import { ToolError } from '@toolshed/mcp-core';
import type { AddressObject, EmailAddress as ParsedAddress } from 'mailparser';
import { safeAttachmentFileName } from './attachment-file-name.ts';
import { htmlToPlainText } from './html-to-plain-text.ts';
import type { MailReadingContext } from './mail-reading-context.ts';
import { parseMessageId } from './message-id.ts';
import { fetchParsedMessage, type KeepAttachment } from './parsed-message.ts';

// A header naming more mailboxes than this is an attack on the reply, not a conversation: the rest is not read.
const maxHeaderAddresses = 1000;
// Threads deeper than this keep their newest Message-IDs, as mailers do when References grows too long.
const maxReferences = 20;

/** The message a reply answers or a forward passes on, as read from the mailbox: everything in it is the sender's. */
export interface OriginalMessage {
  mailbox: string;
  uid: number;
  /** Its Message-ID, when it has one of the form `<id@host>`. */
  messageId: string | undefined;
  /** Its References, each a valid Message-ID, oldest first. */
  references: string[];
  /** One line, no control characters. */
  subject: string;
  date: Date | undefined;
  /** Addresses as written in each header, not yet checked: a reply parses and checks each one. */
  from: string[];
  replyTo: string[];
  to: string[];
  cc: string[];
  /** More addresses than are read were listed in To or Cc. */
  addressesCut: boolean;
  /** `Name <address>` of the sender, one line, for the line above the quote. */
  sender: string;
  /** The body as plain text (HTML turned into what a reader sees). */
  text: string;
  /** Their bytes only when asked for (a forward), each within the caps; `content` is undefined for one that is not. */
  attachments: { filename: string; contentType: string; size: number; content: Buffer | undefined }[];
  /** The message was larger than a call may fetch and was cut. */
  truncated: boolean;
}

/** Every mailbox of an address header, groups opened, in order. */
function mailboxes(value: AddressObject | AddressObject[] | undefined): string[] {
  const objects = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const found: string[] = [];
  const visit = (entries: readonly ParsedAddress[]) => {
    for (const entry of entries) {
      if (found.length > maxHeaderAddresses) return;
      if (entry.group !== undefined) visit(entry.group);
      else found.push(entry.address ?? entry.name);
    }
  };
  for (const object of objects) visit(object.value);
  return found;
}

function headerLine(text: string): string {
  return untrustedLine(text)
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .slice(0, 900);
}

function validIds(values: readonly string[]): string[] {
  return values.flatMap((value) => {
    const parsed = parseMessageId(value);
    return parsed.ok ? [parsed.value] : [];
  });
}

/** Fetches and parses the message a reply or forward is about; a clear error when it is not there. */
export async function fetchOriginalMessage(
  context: MailReadingContext,
  mailbox: string,
  uid: number,
  keepAttachments: { maxEach: number; maxTotal: number } | undefined,
): Promise<OriginalMessage> {
  // A forward keeps each attachment within the caps, as long as they fit together; a reply keeps none.
  const keep: KeepAttachment = (_index, _filename, keptBytes) =>
    keepAttachments === undefined
      ? 0
      : Math.max(0, Math.min(keepAttachments.maxEach, keepAttachments.maxTotal - keptBytes));
  const message = await fetchParsedMessage(context, mailbox, uid, { keep });
  if (message === undefined) throw new ToolError(`There is no message with uid ${uid} in ${mailbox}; search again.`);
  const { parsed } = message;
  const references = parsed.references === undefined ? [] : [parsed.references].flat();
  const to = mailboxes(parsed.to);
  const cc = mailboxes(parsed.cc);
  const text =
    parsed.text !== undefined && parsed.text.trim() !== ''
      ? parsed.text
      : typeof parsed.html === 'string'
        ? await htmlToPlainText(parsed.html)
        : '';
  return {
    mailbox,
    uid,
    messageId: validIds(parsed.messageId === undefined ? [] : [parsed.messageId])[0],
    references: validIds(references).slice(-maxReferences),
    subject: headerLine(parsed.subject ?? ''),
    date: parsed.date,
    from: mailboxes(parsed.from),
    replyTo: mailboxes(parsed.replyTo),
    to,
    cc,
    addressesCut: to.length + cc.length > maxHeaderAddresses,
    sender: headerLine(message.addresses('from').join(', ')) || '(no sender)',
    text: text.replace(/\r\n?/g, '\n'),
    attachments: parsed.attachments.map((attachment, index) => ({
      filename: safeAttachmentFileName(attachment.filename, `attachment-${index + 1}`),
      contentType: attachment.contentType,
      size: attachment.size,
      content: attachment.content,
    })),
    truncated: message.truncated,
  };
}
