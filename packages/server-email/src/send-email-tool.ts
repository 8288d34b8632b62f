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
import type { KeyEnding, KeyStanding, MessageStanding, UncertainNote } from './send-records.ts';
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

function messageUnderWay(): ToolError {
  return new ToolError(
    'Not sent: this same message is being sent right now by another call. Wait for that result before sending it again.',
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
 * send_email: check and build the message, look up its idempotency key (or,
 * without one, whether this message's last send ended in doubt), ask the
 * user, and only then claim the key in the state store, take a slot of the
 * rate limit and hand the message over. In the 2026 era an attempt ends at the question and
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

  /** What the model is told when a send may or may not have happened; without a note, the process sending it stopped. */
  function uncertainText(note: UncertainNote | undefined): string {
    const base =
      note?.reason ??
      'the process sending this message stopped before it could record how the send ended: it may have been sent.';
    const messageId = note?.message_id;
    const check = context.readsMail
      ? `Check before anything else: search_messages in the Sent mailbox (list_mailboxes shows the one marked \\Sent) with ${messageId === undefined ? 'its subject' : `text "${messageId}"`} — if the provider files sent mail there — or ask the recipients.`
      : messageId === undefined
        ? 'Ask the user to look for it in the Sent folder of the account, or to ask the recipients.'
        : `Ask the user to look for Message-ID ${messageId} in the Sent folder of the account, or to ask the recipients.`;
    return [
      `Outcome unknown: ${base}`,
      ...(messageId === undefined
        ? []
        : [
            `Message-ID ${messageId}.${note?.outbox_file === undefined ? '' : ` A copy is in the outbox as ${note.outbox_file}.`}`,
          ]),
      check,
      'Do not send it again on your own: a retry with the same idempotency key or with none is refused; only a new idempotency_key, once the user asks, sends it again.',
    ].join(' ');
  }

  function uncertainRefusal(messageId: string | undefined): ToolError {
    return new ToolError(
      messageId === undefined
        ? 'Not sent: a send of this same message stopped before its outcome was known, and it may have been sent. ' +
            'Check first; to send it again anyway, call send_email with a new idempotency_key.'
        : `Not sent: this same message was handed to the SMTP server before (Message-ID ${messageId}) and may have been sent. ` +
            'Check first; to send it again anyway, call send_email with a new idempotency_key.',
    );
  }

  function replay(prepared: PreparedMessage, first: SendResult): SendResult {
    const result: SendResult = { ...first, replayed: true };
    logSend(context, prepared.draft, {
      event: 'replayed',
      messageId: result.message_id,
      attachments: prepared.attachments.length,
      bytes: result.size_bytes,
      durationMs: 0,
    });
    return result;
  }

  /** The answer when another send holds the key: its result, or why this call does not send. */
  function answerHeld(key: string, standing: KeyStanding, prepared: PreparedMessage): SendResult {
    switch (standing.kind) {
      case 'sent':
        return replay(prepared, standing.result);
      case 'conflict':
        throw conflictError(key);
      case 'uncertain':
        throw new UncertainDeliveryError(uncertainText(standing.note));
      default:
        throw new ToolError(
          `Not sent: a send with the idempotency key "${key}" is still under way. Call send_email again with the same key and message in a minute for its result; do not use a new key for this message.`,
        );
    }
  }

  /** The message handed over, once its records are claimed; every ending is recorded before the answer. */
  async function deliver(
    composed: ComposedMessage,
    record: ReturnType<typeof sendLog>,
    claims: { key: string | undefined; fingerprint: string; messageClaimed: boolean },
  ): Promise<SendResult> {
    const { records } = context;
    const ended = async (ending: KeyEnding) => {
      if (claims.key !== undefined) await records.settleKey(claims.key, ending);
      const uncertain = ending.state === 'uncertain' ? ending.note.message_id : undefined;
      await records.settleMessage(claims.fingerprint, claims.messageClaimed, uncertain);
    };
    const slot = context.sends.take();
    if (!slot.allowed) {
      const reason = rateLimitReason(slot.window.limit, slot.window.windowMs, slot.retryAfterMs);
      record('refused', { reason: 'rate_limit' });
      await ended({ state: 'failed', reason });
      throw new ToolError(`Not sent. ${reason}.`);
    }
    let result: SendResult;
    try {
      const receipt = await context.delivery.deliver(composed);
      record('sent');
      result = {
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
        await ended({ state: 'failed', reason });
        throw error;
      }
      record('uncertain', { reason });
      const kept = await context.keepUncertain(composed).catch(() => undefined);
      const note: UncertainNote = {
        message_id: composed.messageId,
        reason,
        ...(kept === undefined ? {} : { outbox_file: kept }),
      };
      await ended({ state: 'uncertain', note });
      throw new UncertainDeliveryError(uncertainText(note));
    }
    await ended({ state: 'sent', result });
    return result;
  }

  function refuseBlocked(prepared: PreparedMessage): never {
    logSend(context, prepared.draft, {
      event: 'refused',
      attachments: prepared.attachments.length,
      durationMs: 0,
      reason: prepared.blocked.map((item) => item.check).join(','),
    });
    throw blockedError(prepared.blocked);
  }

  async function send(
    prepared: PreparedMessage,
    key: string | undefined,
    print: string,
    call: CallContext,
  ): Promise<SendResult> {
    const { records } = context;
    // A retry of a message already sent must not be refused for the rate
    // limit that its own first send used up; anything else refuses before the store is asked.
    const rateLimitedOnly = prepared.blocked.every((item) => item.check === 'rate_limit');
    if (prepared.blocked.length > 0 && (key === undefined || !rateLimitedOnly)) refuseBlocked(prepared);
    if (key !== undefined) {
      const earlier = await records.lookUpKey(key, print, call.signal);
      if (prepared.blocked.length > 0 && earlier.kind !== 'sent') refuseBlocked(prepared);
      if (earlier.kind !== 'free') return answerHeld(key, earlier, prepared);
    } else {
      const doubt = await records.lookUpMessage(print, call.signal);
      if (doubt.kind === 'uncertain') throw uncertainRefusal(doubt.messageId);
      if (doubt.kind === 'sending') throw messageUnderWay();
    }
    const composed = prepared.composed;
    if (composed === undefined) throw blockedError(prepared.blocked);

    const record = sendLog(prepared, composed);
    if (context.confirmationRequired) await confirmWithUser(prepared, composed, record, call);
    // The user has said yes (or is not asked): only now may anything happen.
    call.signal.throwIfAborted();
    // Another call with this key may have been confirmed while this one waited for its answer, here or on another replica.
    if (key !== undefined) {
      const claimed = await records.claimKey(key, print, call.signal);
      if (claimed.kind !== 'claimed') return answerHeld(key, claimed, prepared);
    }
    let message: MessageStanding;
    try {
      message = await records.claimMessage(print, key !== undefined, call.signal);
    } catch (error) {
      if (key !== undefined) await records.settleKey(key, { state: 'failed', reason: 'the state store failed' });
      throw error;
    }
    if (key === undefined && message.kind === 'uncertain') throw uncertainRefusal(message.messageId);
    if (key === undefined && message.kind === 'sending') throw messageUnderWay();
    return deliver(composed, record, { key, fingerprint: print, messageClaimed: message.kind === 'claimed' });
  }

  return defineTool({
    name: 'send_email',
    title: 'Send email',
    description:
      'Send an email (fixed sender) to recipients the operator allows; the user confirms each, and a declined one is not retried. ' +
      'reply_to_uid (+reply_all) or forward_uid, a uid in mailbox (default INBOX), fills in recipients, subject, threading, quote and attachments from that message.',
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
      const summary = [summarize(result), ...(result.replayed ? [] : prepared.notes)].join(' ');
      // The JSON mirror first, as the specification recommends; the sentence for the model after it.
      return structuredResult(result, { content: [textContent(summary)] });
    },
  });
}
