import { type EmailAddress, parseEmailAddress } from './email-address.ts';
import { asList, type MessageArguments } from './email-arguments.ts';
import { parseMessageId } from './message-id.ts';
import type { RecipientPolicy } from './recipient-policy.ts';
import { findUnsafeCharacter, printable } from './unsafe-characters.ts';

/** A check that stops the message, named so the model can fix that one thing. */
export interface BlockingCheck {
  check:
    | 'header_characters'
    | 'address_syntax'
    | 'allowlist'
    | 'recipient_count'
    | 'body'
    | 'threading'
    | 'attachment'
    | 'attachment_count'
    | 'attachment_size'
    | 'message_size'
    | 'rate_limit';
  field: string;
  reason: string;
}

/** The arguments, checked and parsed: every address and header value as it will be sent. */
export interface MessageDraft {
  to: EmailAddress[];
  cc: EmailAddress[];
  bcc: EmailAddress[];
  replyTo: EmailAddress | undefined;
  subject: string;
  text: string | undefined;
  html: string | undefined;
  inReplyTo: string | undefined;
  references: string[];
  attachments: string[];
}

/** The blocking checks as lines the model can work through, one per field. */
export function describeBlocked(blocked: readonly BlockingCheck[]): string {
  return blocked.map((item) => `- ${item.field} (${item.check}): ${item.reason}.`).join('\n');
}

/** Every distinct recipient, To then Cc then Bcc. */
export function allRecipients(draft: MessageDraft): EmailAddress[] {
  const seen = new Set<string>();
  return [...draft.to, ...draft.cc, ...draft.bcc].filter((address) => {
    if (seen.has(address.key)) return false;
    seen.add(address.key);
    return true;
  });
}

/**
 * Reads the arguments into a draft and lists everything that blocks it: no
 * control characters in any header value, each address parsed strictly and
 * checked against the allowlist (Reply-To too: replies are mail the user did
 * not address), the recipient cap, Message-IDs for threading.
 */
export function draftMessage(
  input: MessageArguments,
  policy: RecipientPolicy,
  maxRecipients: number,
): { draft: MessageDraft; blocked: BlockingCheck[] } {
  const blocked: BlockingCheck[] = [];
  const readAddresses = (field: string, values: string[]): EmailAddress[] =>
    values.flatMap((value, index) => {
      const label = values.length > 1 ? `${field}[${index}]` : field;
      const parsed = parseEmailAddress(value);
      if (!parsed.ok) {
        const check = parsed.reason.startsWith('contains') ? 'header_characters' : 'address_syntax';
        blocked.push({ check, field: label, reason: `"${printable(value)}" ${parsed.reason}` });
        return [];
      }
      const refusal = policy.refusal(parsed.value);
      if (refusal !== undefined)
        blocked.push({ check: 'allowlist', field: label, reason: `${parsed.value.address} ${refusal}` });
      return [parsed.value];
    });
  const to = readAddresses('to', asList(input.to));
  const cc = readAddresses('cc', asList(input.cc));
  const bcc = readAddresses('bcc', asList(input.bcc));
  const replyTo = input.reply_to === undefined ? undefined : readAddresses('reply_to', [input.reply_to])[0];

  const subject = input.subject ?? '';
  const unsafeSubject = findUnsafeCharacter(subject);
  if (unsafeSubject !== undefined) {
    blocked.push({ check: 'header_characters', field: 'subject', reason: `The subject contains ${unsafeSubject}` });
  }
  if (subject.trim() === '') blocked.push({ check: 'body', field: 'subject', reason: 'The subject is empty' });
  if ((input.text ?? '') === '' && (input.html ?? '') === '') {
    blocked.push({ check: 'body', field: 'text', reason: 'There is no body: give text, html, or both' });
  }
  for (const field of ['text', 'html'] as const) {
    if (input[field]?.includes('\0'))
      blocked.push({ check: 'body', field, reason: `The ${field} body contains a NUL character` });
  }

  const readMessageId = (field: string, value: string): string[] => {
    const parsed = parseMessageId(value);
    if (parsed.ok) return [parsed.value];
    const check = parsed.reason.startsWith('contains') ? 'header_characters' : 'threading';
    blocked.push({ check, field, reason: `"${printable(value)}" ${parsed.reason}` });
    return [];
  };
  const inReplyTo = input.in_reply_to === undefined ? undefined : readMessageId('in_reply_to', input.in_reply_to)[0];
  const references = (input.references ?? []).flatMap((value, index) => readMessageId(`references[${index}]`, value));

  const attachments = input.attachments ?? [];
  attachments.forEach((name, index) => {
    const unsafe = findUnsafeCharacter(name);
    if (unsafe !== undefined) {
      blocked.push({
        check: 'header_characters',
        field: `attachments[${index}]`,
        reason: `The file name contains ${unsafe}`,
      });
    }
  });

  const draft: MessageDraft = {
    to,
    cc,
    bcc,
    replyTo,
    subject,
    text: input.text,
    html: input.html,
    inReplyTo,
    references,
    attachments,
  };
  if (to.length === 0 && asList(input.to).length === 0) {
    blocked.push({ check: 'address_syntax', field: 'to', reason: 'There is no recipient in "to"' });
  }
  const count = allRecipients(draft).length;
  if (count > maxRecipients) {
    blocked.push({
      check: 'recipient_count',
      field: 'to',
      reason: `${count} recipients; at most ${maxRecipients} a message (To, Cc and Bcc together)`,
    });
  }
  return { draft, blocked };
}
