import * as z from 'zod';

type RecipientsSchema = z.ZodUnion<readonly [z.ZodString, z.ZodArray<z.ZodString>]>;

const recipients = (role: string): RecipientsSchema =>
  z
    .union([z.string(), z.array(z.string()).max(1000)])
    .describe(
      `${role}: one address or a list, each "alice@example.com" or "Alice Doe <alice@example.com>" — one address per item`,
    );

/** What send_email and preview_email take: the same message, so a preview is exactly what would be sent. */
export const messageArguments: {
  to: RecipientsSchema;
  cc: z.ZodOptional<RecipientsSchema>;
  bcc: z.ZodOptional<RecipientsSchema>;
  subject: z.ZodString;
  text: z.ZodOptional<z.ZodString>;
  html: z.ZodOptional<z.ZodString>;
  reply_to: z.ZodOptional<z.ZodString>;
  in_reply_to: z.ZodOptional<z.ZodString>;
  references: z.ZodOptional<z.ZodArray<z.ZodString>>;
  attachments: z.ZodOptional<z.ZodArray<z.ZodString>>;
} = {
  to: recipients('Recipients'),
  cc: recipients('Copy recipients').optional(),
  bcc: recipients('Blind copy recipients (not shown to the others)').optional(),
  subject: z.string().max(998).describe('Subject line, one line of text'),
  text: z
    .string()
    .optional()
    .describe('Plain-text body. Give text, html, or both (text is what most clients show first)'),
  html: z.string().optional().describe('HTML body'),
  reply_to: z
    .string()
    .optional()
    .describe('Where replies should go; must itself be the sender or an allowed recipient'),
  in_reply_to: z
    .string()
    .optional()
    .describe('Message-ID of the message this one answers, as "<id@host>", to keep the conversation threaded'),
  references: z
    .array(z.string())
    .max(100)
    .optional()
    .describe('Message-IDs of the conversation so far, oldest first, each "<id@host>"'),
  attachments: z
    .array(z.string())
    .max(100)
    .optional()
    .describe(
      'File names inside the attachments directory the operator configured (subfolders allowed, nothing outside)',
    ),
};

export type MessageArguments = z.output<z.ZodObject<typeof messageArguments>>;

export function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}
