import { createHash } from 'node:crypto';
import { defineTool, structuredResult, type Tool, type ToolContext, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { confirmationMessage } from './confirmation-message.ts';
import { type MessageArguments, messageArguments } from './email-arguments.ts';
import type { EmailContext } from './email-context.ts';
import type { SendLogEntry } from './email-server-options.ts';
import { UncertainDeliveryError } from './mail-delivery.ts';
import { type BlockingCheck, describeBlocked } from './message-draft.ts';
import { type PreparedMessage, prepareMessage, rateLimitReason } from './prepare-message.ts';
import { logSend } from './send-log.ts';
import type { SendResult } from './send-result.ts';

const sendResultOutput = z.object({
  message_id: z.string().describe('The Message-ID header, for threading replies (in_reply_to, references)'),
  delivery: z.enum(['smtp', 'outbox']).describe('smtp: handed to the mail server; outbox: written as a file, not sent'),
  accepted: z.array(z.string()).describe('Recipients the server accepted'),
  rejected: z
    .array(z.object({ address: z.string(), reason: z.string() }))
    .describe('Recipients the server refused, with its reason; the others still received the message'),
  size_bytes: z.number().int(),
  outbox_file: z.string().optional().describe('The .eml file written, in outbox mode'),
  replayed: z
    .boolean()
    .describe('True when this idempotency key was already used for this message: the first result, nothing sent again'),
});

function blockedError(blocked: readonly BlockingCheck[]): ToolError {
  return new ToolError(`Not sent. Fix these and call send_email again:\n${describeBlocked(blocked)}`);
}

function fingerprint(input: MessageArguments): string {
  return createHash('sha256').update(JSON.stringify(input)).digest('hex');
}

/**
 * send_email: check, build, ask the user, take a slot of the rate limit,
 * hand over. Each step that refuses says so and sends nothing; every outcome
 * goes to the send log.
 */
export function createSendEmailTool(context: EmailContext): Tool {
  async function send(prepared: PreparedMessage, toolContext: ToolContext): Promise<SendResult> {
    const started = performance.now();
    const composed = prepared.composed;
    if (composed === undefined) throw blockedError(prepared.blocked);
    const record = (event: SendLogEntry['event'], extra: Partial<SendLogEntry> = {}) =>
      logSend(context, prepared.draft, {
        event,
        messageId: composed.messageId,
        attachments: prepared.attachments.length,
        bytes: composed.raw.length,
        durationMs: Math.round(performance.now() - started),
        ...extra,
      });
    if (context.confirmationRequired) {
      const answer = await toolContext.confirm(confirmationMessage(context.sender, prepared, composed.raw.length));
      if (!answer.confirmed) {
        record('declined', { reason: answer.action });
        if (answer.action === 'unavailable') {
          throw new ToolError(
            'Not sent: every email needs the user to confirm it, and this client cannot ask its user (it does not support elicitation). Tell the user what you meant to send; the operator can turn confirmation off with --skip-confirmation.',
          );
        }
        throw new ToolError(
          answer.action === 'cancel'
            ? 'Not sent: the user dismissed the confirmation. Do not send it again unless the user asks.'
            : 'Not sent: the user declined to send this email. Do not send it again unless the user asks.',
        );
      }
    }
    toolContext.signal.throwIfAborted();
    const slot = context.sends.take();
    if (!slot.allowed) {
      const reason = rateLimitReason(slot.window.limit, slot.window.windowMs, slot.retryAfterMs);
      record('refused', { reason: 'rate_limit' });
      throw new ToolError(`Not sent. ${reason}.`);
    }
    try {
      const receipt = await context.delivery.deliver(composed);
      record('sent');
      return {
        message_id: composed.messageId,
        delivery: context.delivery.kind,
        accepted: receipt.accepted,
        rejected: receipt.rejected,
        size_bytes: composed.raw.length,
        ...(receipt.outboxFile === undefined ? {} : { outbox_file: receipt.outboxFile }),
        replayed: false,
      };
    } catch (error) {
      record('failed', { reason: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  return defineTool({
    name: 'send_email',
    title: 'Send email',
    description:
      'Sends an email from the configured sender (there is no "from": it cannot be changed) to recipients the operator allows. ' +
      'The user is asked to confirm each message, with its recipients, subject and attachments shown; if they decline, do not retry. ' +
      'Attachments are file names inside the configured attachments directory. ' +
      'Use preview_email first to see the exact message and any check that would block it, and validate_recipients for addresses you are unsure of. ' +
      'Give an idempotency_key (any unique string) when you might retry: a retry with the same key and message returns the first result instead of sending again. ' +
      'Returns the Message-ID (use it as in_reply_to to thread a reply) and which recipients the server accepted.',
    input: z.object({
      ...messageArguments,
      idempotency_key: z
        .string()
        .min(8)
        .max(200)
        .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces')
        .optional()
        .describe(
          'A unique string (8-200 printable ASCII characters) naming this send; retries with the same key send nothing',
        ),
    }),
    output: sendResultOutput,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async run({ idempotency_key: key, ...input }, toolContext) {
      const prepared = await prepareMessage(context, input, toolContext.signal);
      if (prepared.blocked.length > 0) {
        logSend(context, prepared.draft, {
          event: 'refused',
          attachments: prepared.attachments.length,
          durationMs: 0,
          reason: prepared.blocked.map((item) => item.check).join(','),
        });
        // A retry of a message already sent must not be refused for the rate
        // limit that its own first send used up.
        const onlyRate = prepared.blocked.every((item) => item.check === 'rate_limit');
        if (!(onlyRate && key !== undefined)) throw blockedError(prepared.blocked);
      }
      let result: SendResult;
      if (key === undefined) {
        result = await send(prepared, toolContext);
      } else {
        const claim = context.idempotency.claim(
          key,
          fingerprint(input),
          () => {
            if (prepared.blocked.length > 0) return Promise.reject(blockedError(prepared.blocked));
            return send(prepared, toolContext);
          },
          (error) => error instanceof UncertainDeliveryError,
        );
        if (claim.kind === 'conflict') {
          throw new ToolError(
            `The idempotency key "${key}" was already used for a different message. Use a new key for a new message.`,
          );
        }
        result = claim.kind === 'replay' ? { ...(await claim.outcome), replayed: true } : await claim.outcome;
        if (result.replayed) {
          logSend(context, prepared.draft, {
            event: 'replayed',
            messageId: result.message_id,
            attachments: prepared.attachments.length,
            bytes: result.size_bytes,
            durationMs: 0,
          });
        }
      }
      const shown = result.accepted.join(', ');
      const summary = result.replayed
        ? `Already sent under this idempotency key as ${result.message_id}; nothing was sent again.`
        : result.delivery === 'outbox'
          ? `Written to the outbox as ${result.outbox_file} (not sent: no SMTP server is configured). Message-ID ${result.message_id}, for ${shown}.`
          : `Sent ${result.message_id} to ${shown}.${result.rejected.length > 0 ? ` Refused by the server: ${result.rejected.map((item) => `${item.address} (${item.reason})`).join('; ')}.` : ''}`;
      return structuredResult(result, { text: summary });
    },
  });
}
