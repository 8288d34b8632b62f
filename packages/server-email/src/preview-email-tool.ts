import { createUntrustedTextFence } from '@toolshed/guards';
import { defineTool, structuredResult, type Tool, textContent, toolViewMeta } from '@toolshed/mcp-core';
import * as z from 'zod';
import { describeAddress, type EmailAddress } from './email-address.ts';
import { messageArguments } from './email-arguments.ts';
import { emailPreviewViewUri } from './email-preview-view.ts';
import type { EmailServerContext } from './email-server-context.ts';
import { describeBlocked } from './message-draft.ts';
import { prepareMessage } from './prepare-message.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

const bodyPreviewChars = 20_000;

function cut(body: string | undefined): { value: string | null; truncated: boolean } {
  if (body === undefined || body === '') return { value: null, truncated: false };
  return body.length > bodyPreviewChars
    ? { value: body.slice(0, bodyPreviewChars), truncated: true }
    : { value: body, truncated: false };
}

function addressList() {
  return z.array(z.string());
}

/** preview_email: the exact message send_email would send, and every check that would stop it. */
export function createPreviewEmailTool(context: EmailServerContext): Tool {
  return defineTool({
    name: 'preview_email',
    title: 'Preview email',
    description: 'send_email without sending: the exact message, and every check that would block it.',
    input: () => z.object(messageArguments()),
    output: () =>
      z.object({
        would_send: z.boolean().describe('True when no check blocks the message now'),
        blocked_by: z.array(z.object({ check: z.string(), field: z.string(), reason: z.string() })),
        needs_confirmation: z.boolean().describe('Whether send_email will ask the user first'),
        delivery: z.enum(['smtp', 'outbox']),
        from: z.string(),
        to: addressList(),
        cc: addressList(),
        bcc: addressList(),
        reply_to: z.string().nullable(),
        subject: z.string(),
        headers: z
          .array(z.object({ name: z.string(), value: z.string() }))
          .describe(
            'The header block as sent (Message-ID and Date are assigned again at sending; Bcc is never a header)',
          ),
        text: z.string().nullable(),
        html: z.string().nullable(),
        body_truncated: z
          .boolean()
          .describe(
            `True when text or html is longer than ${bodyPreviewChars} characters and was cut here (not in the message)`,
          ),
        attachments: z.array(z.object({ name: z.string(), size_bytes: z.number().int(), content_type: z.string() })),
        size_bytes: z
          .number()
          .int()
          .nullable()
          .describe('The whole message as sent; null when a check stopped it being built'),
        recipient_rule: z.string().describe('Who may receive mail from this server'),
        notes: z.array(z.string()).describe('About a reply or forward as built: recipients left out, for one'),
      }),
    jsonSchemas: toolJsonSchemas.preview_email,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    // Clients that render views show the message as it would go out, with a Send that still asks the user.
    meta: toolViewMeta({ resourceUri: emailPreviewViewUri }),
    async run(input, call) {
      const prepared = await prepareMessage(context, input, call.signal);
      // Loaded on the first preview, so that nodemailer is not on the start-up path.
      const { detectMimeType } = await import('nodemailer/lib/mime-funcs');
      const { draft, composed } = prepared;
      const shown = (addresses: readonly EmailAddress[]) => addresses.map(describeAddress);
      const text = cut(draft.text);
      const html = cut(draft.html);
      const preview = {
        would_send: prepared.blocked.length === 0,
        blocked_by: prepared.blocked,
        needs_confirmation: context.confirmationRequired,
        delivery: context.delivery.kind,
        from: describeAddress(context.sender),
        to: shown(draft.to),
        cc: shown(draft.cc),
        bcc: shown(draft.bcc),
        reply_to: draft.replyTo === undefined ? null : describeAddress(draft.replyTo),
        subject: draft.subject,
        headers: composed?.headers ?? [],
        text: text.value,
        html: html.value,
        body_truncated: text.truncated || html.truncated,
        attachments: prepared.attachments.map((file) => ({
          name: file.name,
          size_bytes: file.bytes,
          content_type: detectMimeType(file.name),
        })),
        size_bytes: composed?.raw.length ?? null,
        recipient_rule: context.policy.description,
        notes: prepared.notes,
      };
      const verdict =
        prepared.blocked.length === 0
          ? `This message (${preview.size_bytes} bytes) would be sent${context.confirmationRequired ? ' once the user confirms it' : ''}.`
          : `send_email would refuse this message:\n${describeBlocked(prepared.blocked)}`;
      const said = [verdict, ...prepared.notes].join(' ');
      if (!prepared.quotesMail) return structuredResult(preview, { content: [textContent(said)] });
      // A reply or forward quotes what a third party wrote: the whole preview goes inside the fence.
      const fence = createUntrustedTextFence('mail');
      return structuredResult(preview, {
        text: `${fence.notice}\n${fence.wrap(JSON.stringify(preview))}`,
        content: [textContent(said)],
      });
    },
  });
}
