import { parseEmailAddress } from './email-address.ts';
import { asList, type MessageArguments } from './email-arguments.ts';
import type { EmailServerContext } from './email-server-context.ts';
import type { BlockingCheck } from './message-draft.ts';
import { fetchOriginalMessage, type OriginalMessage } from './original-message.ts';

/** A reply or forward turned into the arguments of an ordinary message, and what was decided on the way. */
export interface ReplyForwardArguments {
  input: MessageArguments;
  /** The original's attachments, for a forward. */
  files: { filename: string; content: Buffer }[];
  /** What the model should know about the message as built: recipients left out of a reply-all above all. */
  notes: string[];
  blocked: BlockingCheck[];
  /** The body quotes mail a third party wrote. */
  quotesMail: boolean;
  /** The recipients were taken from the original's headers, not given. */
  recipientsFromOriginal: boolean;
}

function quoted(text: string, cap: number): string {
  const cut = text.length > cap ? `${text.slice(0, cap)}\n[…]` : text;
  return cut
    .trimEnd()
    .split('\n')
    .map((line) => (line === '' ? '>' : `> ${line}`))
    .join('\n');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function withPrefix(prefix: 'Re' | 'Fwd', subject: string): string {
  if (new RegExp(`^${prefix}:`, 'i').test(subject)) return subject;
  return `${prefix}: ${subject}`.trimEnd();
}

function dateText(date: Date | undefined): string {
  return date === undefined ? 'an unknown date' : date.toUTCString();
}

/** The body given, with the original after it: as text, and as HTML when the body given has HTML. */
function bodyWith(input: MessageArguments, after: string): { text?: string; html?: string } {
  const text = `${input.text ?? ''}\n\n${after}`.replace(/^\n+/, '');
  if (input.html === undefined) return { text };
  const html = `${input.html}<br><br><blockquote>${escapeHtml(after).replace(/\n/g, '<br>')}</blockquote>`;
  return { ...(input.text === undefined ? {} : { text }), html };
}

/**
 * The recipients of a reply: who the original asks replies to go to (its
 * Reply-To, else its From), checked like any address the model gives; and,
 * for reply-all, everyone else in its To and Cc, except this account. A
 * reply-all never widens the allowlist: its other recipients that the
 * allowlist refuses, or that are not one plain address, are left out, and the
 * note says who; the reply's own addressee is checked as given, so a Reply-To
 * pointing outside the allowlist stops the reply.
 */
function replyRecipients(
  context: EmailServerContext,
  original: OriginalMessage,
  replyAll: boolean,
): { to: string[]; cc: string[]; notes: string[] } {
  const to = original.replyTo.length > 0 ? original.replyTo : original.from;
  if (!replyAll) return { to, cc: [], notes: [] };
  const seen = new Set<string>([
    ...context.ownAddresses.map((address) => address.toLowerCase()),
    ...to.map((address) => address.toLowerCase()),
  ]);
  const cc: string[] = [];
  const refused: string[] = [];
  let unreadable = 0;
  for (const candidate of [...original.to, ...original.cc]) {
    const parsed = parseEmailAddress(candidate);
    if (!parsed.ok) {
      unreadable++;
      continue;
    }
    if (seen.has(parsed.value.key)) continue;
    seen.add(parsed.value.key);
    if (context.policy.refusal(parsed.value) !== undefined) refused.push(parsed.value.address);
    else cc.push(parsed.value.address);
  }
  const notes = [
    ...(refused.length === 0
      ? []
      : [
          `Left out of the reply-all, not on the recipient allowlist: ${refused.slice(0, 20).join(', ')}${refused.length > 20 ? ` and ${refused.length - 20} more` : ''}.`,
        ]),
    ...(unreadable === 0
      ? []
      : [`Left out of the reply-all: ${unreadable} entries of To/Cc that are not one plain address.`]),
    ...(original.addressesCut ? ['Only the first 1000 addresses of To and Cc were read.'] : []),
  ];
  return { to, cc, notes };
}

function replyArguments(
  context: EmailServerContext,
  input: MessageArguments,
  original: OriginalMessage,
): ReplyForwardArguments {
  const given = input.to !== undefined && asList(input.to).length > 0;
  const recipients = given
    ? { to: asList(input.to), cc: asList(input.cc), notes: [] }
    : replyRecipients(context, original, input.reply_all === true);
  const quote = `On ${dateText(original.date)}, ${original.sender} wrote:\n${quoted(original.text, context.limits.maxBodyCharacters)}`;
  const references = input.references ?? [
    ...original.references,
    ...(original.messageId === undefined ? [] : [original.messageId]),
  ];
  const inReplyTo = input.in_reply_to ?? original.messageId;
  return {
    input: {
      ...input,
      to: recipients.to,
      ...(recipients.cc.length === 0 && input.cc === undefined ? {} : { cc: [...recipients.cc, ...asList(input.cc)] }),
      subject: input.subject ?? withPrefix('Re', original.subject),
      ...bodyWith(input, quote),
      ...(inReplyTo === undefined ? {} : { in_reply_to: inReplyTo }),
      ...(references.length === 0 ? {} : { references }),
    },
    files: [],
    notes: [
      ...recipients.notes,
      ...(original.messageId === undefined
        ? ['The original has no valid Message-ID: the reply is not threaded to it.']
        : []),
    ],
    // The quote alone is not an answer: without words of its own the reply would only send the original back.
    blocked:
      (input.text ?? '') === '' && (input.html ?? '') === ''
        ? [{ check: 'body', field: 'text', reason: 'A reply needs its own text: give text, html, or both' }]
        : [],
    quotesMail: original.text.trim() !== '',
    recipientsFromOriginal: !given,
  };
}

function forwardArguments(
  context: EmailServerContext,
  input: MessageArguments,
  original: OriginalMessage,
): ReplyForwardArguments {
  const { limits } = context;
  const blocked: BlockingCheck[] = [];
  if (original.truncated) {
    blocked.push({
      check: 'message_size',
      field: 'forward_uid',
      reason: `The message is larger than the ${limits.maxCallBytes} bytes a call may fetch, so it cannot be forwarded whole`,
    });
  }
  const count = asList(input.attachments).length + original.attachments.length;
  if (count > limits.maxAttachments) {
    blocked.push({
      check: 'attachment_count',
      field: 'forward_uid',
      reason: `The forward would carry ${count} attachments; at most ${limits.maxAttachments} a message`,
    });
  }
  for (const [index, attachment] of original.attachments.entries()) {
    if (attachment.size > limits.maxAttachmentBytes) {
      blocked.push({
        check: 'attachment_size',
        field: `forward_uid attachment ${index + 1}`,
        reason: `"${attachment.filename}" is ${attachment.size} bytes; each attachment may have at most ${limits.maxAttachmentBytes}`,
      });
    }
  }
  if (blocked.length === 0 && original.attachments.some((attachment) => attachment.content === undefined)) {
    blocked.push({
      check: 'message_size',
      field: 'forward_uid',
      reason: `The attachments come to more than the ${limits.maxMessageBytes} bytes a message may have`,
    });
  }
  const header = [
    '---------- Forwarded message ----------',
    `From: ${original.sender}`,
    `Date: ${dateText(original.date)}`,
    `Subject: ${original.subject}`,
    `To: ${original.to.slice(0, 20).join(', ')}${original.to.length > 20 ? ', …' : ''}`,
  ].join('\n');
  return {
    input: {
      ...input,
      subject: input.subject ?? withPrefix('Fwd', original.subject),
      ...bodyWith(input, `${header}\n\n${original.text.trimEnd()}`),
    },
    files:
      blocked.length > 0
        ? []
        : original.attachments.map((attachment) => ({
            filename: attachment.filename,
            content: attachment.content ?? Buffer.alloc(0),
          })),
    notes: [],
    blocked,
    quotesMail: true,
    recipientsFromOriginal: false,
  };
}

/**
 * Fills in a reply (`reply_to_uid`) or forward (`forward_uid`) from the
 * message it is about, read from the mailbox without changing it. What the
 * model gave wins over what would be filled in: its `to`, `subject`,
 * `in_reply_to` and `references`. The result is checked afterwards exactly as
 * a message the model wrote in full would be.
 */
export async function replyForwardArguments(
  context: EmailServerContext,
  input: MessageArguments,
): Promise<ReplyForwardArguments | undefined> {
  const uid = input.reply_to_uid ?? input.forward_uid;
  if (uid === undefined) return undefined;
  const refuse = (reason: string): ReplyForwardArguments => ({
    input,
    files: [],
    notes: [],
    blocked: [{ check: 'threading', field: input.reply_to_uid === undefined ? 'forward_uid' : 'reply_to_uid', reason }],
    quotesMail: false,
    recipientsFromOriginal: false,
  });
  if (input.reply_to_uid !== undefined && input.forward_uid !== undefined) {
    return refuse('Give reply_to_uid or forward_uid, not both');
  }
  if (context.reading === undefined) {
    return refuse('Replies and forwards read the original over IMAP, and the operator has configured no IMAP server');
  }
  const forward = input.reply_to_uid === undefined;
  const original = await fetchOriginalMessage(
    context.reading,
    input.mailbox ?? 'INBOX',
    uid,
    forward ? { maxEach: context.limits.maxAttachmentBytes, maxTotal: context.limits.maxMessageBytes } : undefined,
  );
  return forward ? forwardArguments(context, input, original) : replyArguments(context, input, original);
}
