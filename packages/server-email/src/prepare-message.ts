import { readAttachments } from './attachment-files.ts';
import { type ComposedMessage, composeMessage } from './compose-message.ts';
import type { MessageArguments } from './email-arguments.ts';
import type { EmailServerContext } from './email-server-context.ts';
import { type BlockingCheck, draftMessage, type MessageDraft } from './message-draft.ts';
import { replyForwardArguments } from './reply-forward-arguments.ts';

export interface PreparedMessage {
  draft: MessageDraft;
  /** Built when nothing in the arguments blocked it. */
  composed: ComposedMessage | undefined;
  attachments: { name: string; bytes: number }[];
  blocked: BlockingCheck[];
  /** What the model should know about a reply or forward as built, such as recipients left out. */
  notes: string[];
  /** The body quotes mail a third party wrote (a reply or forward): shown to the model fenced. */
  quotesMail: boolean;
}

/**
 * Everything send_email does short of asking and sending, and all that
 * preview_email does: fill in a reply or forward from its original, check the
 * arguments, read the attachments, build the message, measure it, and say
 * whether the rate limit would stop it now. Only reads: in the 2026 era it
 * runs again when the user's answer comes.
 */
export async function prepareMessage(
  context: EmailServerContext,
  input: MessageArguments,
  signal: AbortSignal,
): Promise<PreparedMessage> {
  const answer = await replyForwardArguments(context, input);
  const { draft, blocked } = draftMessage(answer?.input ?? input, context.policy, context.limits.maxRecipients);
  if (answer?.recipientsFromOriginal === true) {
    // The model did not write these addresses: say where they came from, and how to answer someone else.
    for (const item of blocked) {
      if (item.check === 'allowlist' && item.field.startsWith('to')) {
        item.reason +=
          ' (taken from the Reply-To or From of the message answered; give "to" to answer someone allowed)';
      }
    }
  }
  blocked.push(...(answer?.blocked ?? []));
  const read = await readAttachments(draft.attachments, context.attachments, context.limits, signal);
  blocked.push(...read.blocked);
  const files = [...read.files, ...(answer?.files ?? [])];
  const attachments = files.map((file) => ({ name: file.filename, bytes: file.content.length }));
  let composed: ComposedMessage | undefined;
  if (blocked.length === 0) {
    composed = await composeMessage(draft, context.sender, files);
    if (composed.raw.length > context.limits.maxMessageBytes) {
      blocked.push({
        check: 'message_size',
        field: 'attachments',
        reason: `The message is ${composed.raw.length} bytes as sent; at most ${context.limits.maxMessageBytes}. Send fewer or smaller attachments, or a shorter body`,
      });
    }
  }
  const rate = context.sends.check();
  if (!rate.allowed) {
    blocked.push({
      check: 'rate_limit',
      field: 'to',
      reason: rateLimitReason(rate.window.limit, rate.window.windowMs, rate.retryAfterMs),
    });
  }
  return {
    draft,
    composed,
    attachments,
    blocked,
    notes: answer?.notes ?? [],
    quotesMail: answer?.quotesMail ?? false,
  };
}

export function rateLimitReason(limit: number, windowMs: number, retryAfterMs: number): string {
  const span = windowMs >= 3_600_000 ? 'an hour' : 'a minute';
  return `The send limit is reached: at most ${limit} emails ${span}. Try again in ${Math.ceil(retryAfterMs / 1000)} s`;
}
