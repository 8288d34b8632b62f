import { readAttachments } from './attachment-files.ts';
import { type ComposedMessage, composeMessage } from './compose-message.ts';
import type { MessageArguments } from './email-arguments.ts';
import type { EmailServerContext } from './email-server-context.ts';
import { type BlockingCheck, draftMessage, type MessageDraft } from './message-draft.ts';

export interface PreparedMessage {
  draft: MessageDraft;
  /** Built when nothing in the arguments blocked it. */
  composed: ComposedMessage | undefined;
  attachments: { name: string; bytes: number }[];
  blocked: BlockingCheck[];
}

/**
 * Everything send_email does short of asking and sending, and all that
 * preview_email does: check the arguments, read the attachments, build the
 * message, measure it, and say whether the rate limit would stop it now.
 */
export async function prepareMessage(
  context: EmailServerContext,
  input: MessageArguments,
  signal: AbortSignal,
): Promise<PreparedMessage> {
  const { draft, blocked } = draftMessage(input, context.policy, context.limits.maxRecipients);
  const read = await readAttachments(draft.attachments, context.attachments, context.limits, signal);
  blocked.push(...read.blocked);
  const attachments = read.files.map((file) => ({ name: file.filename, bytes: file.content.length }));
  let composed: ComposedMessage | undefined;
  if (blocked.length === 0) {
    composed = await composeMessage(draft, context.sender, read.files);
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
  return { draft, composed, attachments, blocked };
}

export function rateLimitReason(limit: number, windowMs: number, retryAfterMs: number): string {
  const span = windowMs >= 3_600_000 ? 'an hour' : 'a minute';
  return `The send limit is reached: at most ${limit} emails ${span}. Try again in ${Math.ceil(retryAfterMs / 1000)} s`;
}
