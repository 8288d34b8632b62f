import * as z from 'zod';

type RecipientsSchema = z.ZodUnion<readonly [z.ZodString, z.ZodArray<z.ZodString>]>;

const recipients = (): RecipientsSchema => z.union([z.string(), z.array(z.string()).max(1000)]);

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
  // Models put several addresses in one string; each item is held to one address.
  to: recipients().describe('One address per item: "a@example.com" or "Ann <a@example.com>"'),
  cc: recipients().optional(),
  bcc: recipients().optional(),
  subject: z.string().max(998).describe('One line'),
  text: z.string().optional().describe('Give text, html or both'),
  html: z.string().optional(),
  reply_to: z.string().optional(),
  in_reply_to: z.string().optional().describe('Message-ID answered, "<id@host>"'),
  references: z.array(z.string()).max(100).optional().describe('Message-IDs of the thread, oldest first'),
  attachments: z.array(z.string()).max(100).optional().describe('File names in the attachments directory'),
};

export type MessageArguments = z.output<z.ZodObject<typeof messageArguments>>;

export function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}
