import { type CallContext, defineTool, structuredResult, type Tool, ToolError, textContent } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { ComposedMessage } from './compose-message.ts';
import { confirmationMessage } from './confirmation-message.ts';
import { type MessageArguments, messageArguments } from './email-arguments.ts';
import type { EmailServerContext } from './email-server-context.ts';
import type { SendLogEntry } from './email-server-options.ts';
import { UncertainDeliveryError } from './mail-delivery.ts';
import { type BlockingCheck, describeBlocked } from './message-draft.ts';
import { type PreparedMessage, prepareMessage, rateLimitReason } from './prepare-message.ts';
import { logSend } from './send-log.ts';
import type { SendResult } from './send-result.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

function sendResultOutput() {
  return z.object({
    message_id: z.string().describe('The Message-ID header, for threading replies (in_reply_to, references)'),
    delivery: z
      .enum(['smtp', 'outbox'])
      .describe('smtp: handed to the mail server; outbox: written as a file, not sent'),
    accepted: z.array(z.string()).describe('Recipients the server accepted'),
    rejected: z
      .array(z.object({ address: z.string(), reason: z.string() }))
      .describe('Recipients the server refused, with its reason; the others still received the message'),
    size_bytes: z.number().int(),
    outbox_file: z.string().optional().describe('The .eml file written, in outbox mode'),
    replayed: z
      .boolean()
      .describe(
        'True when this idempotency key was already used for this message: the first result, nothing sent again',
      ),
  });
}

const maxUncertainRemembered = 10_000;

function blockedError(blocked: readonly BlockingCheck[]): ToolError {
  return new ToolError(`Not sent. Fix these and call send_email again:\n${describeBlocked(blocked)}`);
}

function fingerprint(input: MessageArguments): string {
  // Loaded here, not imported, to keep node:crypto off the start-up path.
  const { createHash } = process.getBuiltinModule('node:crypto');
  return createHash('sha256').update(JSON.stringify(input)).digest('hex');
}

function conflictError(key: string): ToolError {
  return new ToolError(
    `The idempotency key "${key}" was already used for a different message. Use a new key for a new message.`,
  );
}

function summarize(result: SendResult): string {
  if (result.replayed)
    return `Already sent under this idempotency key as ${result.message_id}; nothing was sent again.`;
  const shown = result.accepted.join(', ');
  if (result.delivery === 'outbox') {
    return `Written to the outbox as ${result.outbox_file} (not sent: no SMTP server is configured). Message-ID ${result.message_id}, for ${shown}.`;
  }
  const refused = result.rejected.map((item) => `${item.address} (${item.reason})`).join('; ');
  return `Sent ${result.message_id} to ${shown}.${result.rejected.length > 0 ? ` Refused by the server: ${refused}.` : ''}`;
}

/**
 * send_email: check and build the message, look up its idempotency key, ask
 * the user, and only then take a slot of the rate limit, claim the key and
 * hand the message over. In the 2026 era an attempt ends at the question and
 * the retry runs the handler again from the top, so everything before the
 * question is pure: nothing is logged, counted, remembered or sent for an
 * attempt that is still waiting for its answer. Each step that refuses says
 * so and sends nothing; every outcome goes to the send log.
 */
export function createSendEmailTool(context: EmailServerContext): Tool {
  /** Log entries about one composed message, timed from when it was ready to ask about. */
  function sendLog(prepared: PreparedMessage, composed: ComposedMessage) {
    const started = performance.now();
    return (event: SendLogEntry['event'], extra: Partial<SendLogEntry> = {}) =>
      logSend(context, prepared.draft, {
        event,
        messageId: composed.messageId,
        attachments: prepared.attachments.length,
        bytes: composed.raw.length,
        durationMs: Math.round(performance.now() - started),
        ...extra,
      });
  }

  async function confirmWithUser(
    prepared: PreparedMessage,
    composed: ComposedMessage,
    record: ReturnType<typeof sendLog>,
    call: CallContext,
  ): Promise<void> {
    const answer = await call.confirm(confirmationMessage(context.sender, prepared, composed.raw.length));
    if (answer.confirmed) return;
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

  /** What the model is told when a send may or may not have happened. */
  function uncertainText(base: string, messageId: string, kept: string | undefined): string {
    const check = context.readsMail
      ? `Check before anything else: search_messages in the Sent mailbox (list_mailboxes shows the one marked \\Sent) with text "${messageId}" — if the provider files sent mail there — or ask the recipients.`
      : `Ask the user to look for Message-ID ${messageId} in the Sent folder of the account, or to ask the recipients.`;
    return [
      `Outcome unknown: ${base}`,
      `Message-ID ${messageId}.${kept === undefined ? '' : ` A copy is in the outbox as ${kept}.`}`,
      check,
      'Do not send it again on your own: a retry with the same idempotency key or with none is refused; only a new idempotency_key, once the user asks, sends it again.',
    ].join(' ');
  }

  async function deliver(
    composed: ComposedMessage,
    record: ReturnType<typeof sendLog>,
    print: string,
  ): Promise<SendResult> {
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
      const reason = error instanceof Error ? error.message : String(error);
      if (!(error instanceof UncertainDeliveryError)) {
        record('failed', { reason });
        throw error;
      }
      context.uncertainSends.set(print, composed.messageId);
      if (context.uncertainSends.size > maxUncertainRemembered) {
        const oldest = context.uncertainSends.keys().next();
        if (oldest.done !== true) context.uncertainSends.delete(oldest.value);
      }
      record('uncertain', { reason });
      const kept = await context.keepUncertain(composed).catch(() => undefined);
      throw new UncertainDeliveryError(uncertainText(reason, composed.messageId, kept));
    }
  }

  function uncertainRefusal(messageId: string): ToolError {
    return new ToolError(
      `Not sent: this same message was handed to the SMTP server before (Message-ID ${messageId}) and may have been sent. ` +
        'Check first; to send it again anyway, call send_email with a new idempotency_key.',
    );
  }

  async function replay(prepared: PreparedMessage, outcome: Promise<SendResult>): Promise<SendResult> {
    const result: SendResult = { ...(await outcome), replayed: true };
    logSend(context, prepared.draft, {
      event: 'replayed',
      messageId: result.message_id,
      attachments: prepared.attachments.length,
      bytes: result.size_bytes,
      durationMs: 0,
    });
    return result;
  }

  async function send(
    prepared: PreparedMessage,
    key: string | undefined,
    print: string,
    call: CallContext,
  ): Promise<SendResult> {
    const earlier = key === undefined ? undefined : context.idempotency.recall(key, print);
    // A retry of a message already sent must not be refused for the rate
    // limit that its own first send used up.
    const replayable = earlier?.kind === 'replay' && prepared.blocked.every((item) => item.check === 'rate_limit');
    if (prepared.blocked.length > 0 && !replayable) {
      logSend(context, prepared.draft, {
        event: 'refused',
        attachments: prepared.attachments.length,
        durationMs: 0,
        reason: prepared.blocked.map((item) => item.check).join(','),
      });
      throw blockedError(prepared.blocked);
    }
    if (key !== undefined && earlier?.kind === 'conflict') throw conflictError(key);
    if (earlier?.kind === 'replay') return replay(prepared, earlier.outcome);
    const uncertain = context.uncertainSends.get(print);
    if (key === undefined && uncertain !== undefined) throw uncertainRefusal(uncertain);
    const composed = prepared.composed;
    if (composed === undefined) throw blockedError(prepared.blocked);

    const record = sendLog(prepared, composed);
    if (context.confirmationRequired) await confirmWithUser(prepared, composed, record, call);
    // The user has said yes (or is not asked): only now may anything happen.
    call.signal.throwIfAborted();
    if (key === undefined) return deliver(composed, record, print);
    // Another call with this key may have been confirmed while this one waited for its answer.
    const claim = context.idempotency.claim(
      key,
      print,
      () => deliver(composed, record, print),
      (error) => error instanceof UncertainDeliveryError,
    );
    if (claim.kind === 'conflict') throw conflictError(key);
    return claim.kind === 'replay' ? replay(prepared, claim.outcome) : claim.outcome;
  }

  return defineTool({
    name: 'send_email',
    title: 'Send email',
    description:
      'Send an email (the sender is fixed) to recipients the operator allows. The user confirms each one; if ' +
      'declined, do not retry. Returns the Message-ID, for in_reply_to.',
    input: () =>
      z.object({
        ...messageArguments(),
        idempotency_key: z
          .string()
          // Checked, not advertised: each rule would cost tokens on every turn.
          .refine((key) => /^[\x21-\x7e]{8,200}$/.test(key), '8 to 200 printable ASCII characters, no spaces')
          .optional()
          .describe('Any unique string; a retry with the same key sends nothing'),
      }),
    output: sendResultOutput,
    jsonSchemas: toolJsonSchemas.send_email,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async run({ idempotency_key: key, ...input }, call) {
      const prepared = await prepareMessage(context, input, call.signal);
      const result = await send(prepared, key, fingerprint(input), call);
      // The JSON mirror first, as the specification recommends; the sentence for the model after it.
      return structuredResult(result, { content: [textContent(summarize(result))] });
    },
  });
}
