import * as z from 'zod';

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
} {
  return {
    // Models put several addresses in one string; each item is held to one address.
    to: recipients().describe('One address per item'),
    cc: recipients().optional(),
    bcc: recipients().optional(),
    subject: z.string().refine(atMost(998), 'at most 998 characters').describe('One line'),
    text: z.string().optional().describe('Give text, html or both'),
    html: z.string().optional(),
    reply_to: z.string().optional(),
    in_reply_to: z.string().optional().describe('Message-ID answered'),
    references: z
      .array(z.string())
      .refine(atMost(100), 'at most 100')
      .optional()
      .describe('Message-IDs of the thread, oldest first'),
    attachments: z
      .array(z.string())
      .refine(atMost(100), 'at most 100 files')
      .optional()
      .describe('File names in the attachments directory'),
  };
}

export type MessageArguments = z.output<z.ZodObject<ReturnType<typeof messageArguments>>>;

export function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : value;
}
