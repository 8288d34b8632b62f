import * as z from 'zod';
import { shortText, uidArgument } from './mailbox-arguments.ts';

type RecipientsSchema = z.ZodPreprocess<z.ZodArray<z.ZodString>, unknown>;

// Sizes are checked, not advertised: a model never comes near them, and each costs tokens on every turn.
const atMost = (count: number) => (values: readonly string[] | string) => values.length <= count;

// A single string is taken as a list of one; the schema a model sees says list only, which is all it needs.
const recipients = (): RecipientsSchema =>
  z.preprocess(
    (value) => (typeof value === 'string' ? [value] : value),
    z.array(z.string()).refine(atMost(1000), 'at most 1000 addresses'),
  );

/** What send_email and preview_email take: the same message, so a preview is exactly what would be sent. */
export function messageArguments(): {
  to: z.ZodOptional<RecipientsSchema>;
  cc: z.ZodOptional<RecipientsSchema>;
  bcc: z.ZodOptional<RecipientsSchema>;
  subject: z.ZodOptional<z.ZodString>;
  text: z.ZodOptional<z.ZodString>;
  html: z.ZodOptional<z.ZodString>;
  reply_to: z.ZodOptional<z.ZodString>;
  in_reply_to: z.ZodOptional<z.ZodString>;
  references: z.ZodOptional<z.ZodArray<z.ZodString>>;
  attachments: z.ZodOptional<z.ZodArray<z.ZodString>>;
  reply_to_uid: z.ZodOptional<z.ZodNumber>;
  reply_all: z.ZodOptional<z.ZodBoolean>;
  forward_uid: z.ZodOptional<z.ZodNumber>;
  mailbox: z.ZodOptional<z.ZodString>;
} {
  return {
    // Models put several addresses in one string; each item is held to one address.
    // Optional only for a reply, which takes its recipients from the message answered; checked when composed.
    to: recipients().optional().describe('One address per item'),
    cc: recipients().optional(),
    bcc: recipients().optional(),
    // Checked at run time with a message that says what to fix: no words in the schema for them.
    subject: z.string().refine(atMost(998), 'at most 998 characters').optional(),
    text: z.string().optional(),
    html: z.string().optional(),
    reply_to: z.string().optional(),
    in_reply_to: z.string().optional(),
    references: z.array(z.string()).refine(atMost(100), 'at most 100').optional(),
    attachments: z
      .array(z.string())
      .refine(atMost(100), 'at most 100 files')
      .optional()
      .describe('File names in the attachments directory'),
    // Replies and forwards are send_email's own arguments rather than tools of their own: the same checks, the same
    // question and idempotency, and the tool list a model pays for on every turn grows by four fields, not two tools.
    // What they do is said once, in send_email's description, rather than in both tools' schemas.
    reply_to_uid: uidArgument().optional(),
    reply_all: z.boolean().optional(),
    forward_uid: uidArgument().optional(),
    mailbox: shortText(1000).optional(),
  };
}

export type MessageArguments = z.output<z.ZodObject<ReturnType<typeof messageArguments>>>;

export function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}
