import { homedir } from 'node:os';
import { join } from 'node:path';
import { limitOption } from '@toolshed/mcp-core';
import * as z from 'zod';
import { stateLocationProblem } from './state-location.ts';

/** How recipients appear in the send log on stderr. */
export type RecipientLogging = z.output<typeof emailServerOptions>['logRecipients'];

/** One line of the send log: every send, refusal and failure. */
export interface SendLogEntry {
  time: string;
  event: 'sent' | 'failed' | 'uncertain' | 'refused' | 'declined' | 'replayed';
  delivery: 'smtp' | 'outbox';
  messageId?: string | undefined;
  /** Hashed (`sha256:` and 16 hex digits of the lower-case address), domain only, or in full, per `logRecipients`. */
  recipients: string[];
  attachments: number;
  bytes?: number | undefined;
  durationMs: number;
  reason?: string | undefined;
}

type SmtpSecurity = z.ZodEnum<{ starttls: 'starttls'; tls: 'tls'; none: 'none' }>;

// Shapes are spelt out as types because exported schemas need declared types under isolatedDeclarations.
type SmtpOptionsShape = {
  host: z.ZodString;
  port: z.ZodOptional<z.ZodNumber>;
  security: z.ZodOptional<SmtpSecurity>;
  user: z.ZodOptional<z.ZodString>;
  password: z.ZodOptional<z.ZodString>;
  ca: z.ZodOptional<z.ZodString>;
};

type SmtpOptionsSchema = z.ZodObject<SmtpOptionsShape, z.core.$strict>;

const port = { error: 'must be a port number, 1 to 65535' };

function portOption(description: string): z.ZodOptional<z.ZodNumber> {
  return z.number(port).int(port).min(1, port).max(65_535, port).optional().meta({ description, placeholder: 'PORT' });
}

// No defaults inside: the bin would fill them in and so turn SMTP on for every run.
const smtpOptions: SmtpOptionsSchema = z.strictObject({
  host: z
    .string({ error: (issue) => (issue.input === undefined ? 'required with any other SMTP setting' : undefined) })
    .meta({
      description: 'Send through this SMTP server; without one, messages are written to the outbox',
      placeholder: 'HOST',
    }),
  port: portOption('The SMTP port; default 587, or 465 with `tls`'),
  security: z.enum(['starttls', 'tls', 'none']).optional().meta({
    description:
      '`starttls` (default) requires the upgrade, never silently plain; `tls` from the first byte (port 465); `none` only for a relay on this machine',
  }),
  user: z.string().optional().meta({ description: 'The SMTP login', placeholder: 'USER' }),
  password: z
    .string()
    .optional()
    .meta({ description: 'The SMTP password', flag: false, env: 'TOOLSHED_EMAIL_SMTP_PASSWORD' }),
  ca: z.string().optional().meta({
    description:
      "PEM certificates to trust besides the system's, for a private CA (the bin reads them from FILE); certificates are always verified",
    placeholder: 'FILE',
  }),
});

/** Where SMTP delivery goes and how it logs in. */
export type SmtpOptions = z.input<SmtpOptionsSchema>;

type ImapOptionsShape = {
  host: z.ZodString;
  port: z.ZodOptional<z.ZodNumber>;
  security: z.ZodOptional<SmtpSecurity>;
  user: z.ZodString;
  password: z.ZodOptional<z.ZodString>;
  accessToken: z.ZodOptional<z.ZodString>;
  ca: z.ZodOptional<z.ZodString>;
};

type ImapOptionsSchema = z.ZodObject<ImapOptionsShape, z.core.$strict>;

const imapOptions: ImapOptionsSchema = z.strictObject({
  host: z
    .string({ error: (issue) => (issue.input === undefined ? 'required with any other IMAP setting' : undefined) })
    .meta({
      description: 'Read mail from this IMAP server; without one, there are no reading tools',
      placeholder: 'HOST',
    }),
  port: portOption('The IMAP port; default 993, or 143 with `starttls`'),
  security: z.enum(['tls', 'starttls', 'none']).optional().meta({
    description:
      '`tls` (default) from the first byte; `starttls` requires the upgrade, never silently plain; `none` only to 127.0.0.1 or ::1',
  }),
  user: z
    .string({ error: (issue) => (issue.input === undefined ? 'required with an IMAP host' : undefined) })
    .meta({ description: 'The IMAP login', placeholder: 'USER' }),
  password: z
    .string()
    .optional()
    .meta({ description: 'The IMAP password (an app password)', flag: false, env: 'TOOLSHED_EMAIL_IMAP_PASSWORD' }),
  accessToken: z.string().optional().meta({
    description: 'An OAuth2 access token, logged in with XOAUTH2 instead of the password',
    flag: false,
    env: 'TOOLSHED_EMAIL_IMAP_ACCESS_TOKEN',
  }),
  ca: z.string().optional().meta({
    description:
      "PEM certificates to trust besides the system's (the bin reads them from FILE); certificates are always verified",
    placeholder: 'FILE',
  }),
});

/** Where mail is read from and how to log in. */
export type ImapOptions = z.input<ImapOptionsSchema>;

type OAuth2OptionsShape = {
  tokenUrl: z.ZodString;
  clientId: z.ZodString;
  clientSecret: z.ZodOptional<z.ZodString>;
  refreshToken: z.ZodString;
};

type OAuth2OptionsSchema = z.ZodObject<OAuth2OptionsShape, z.core.$strict>;

const requiredWithOAuth2 = (issue: { input: unknown }) =>
  issue.input === undefined ? 'required with any other OAuth2 setting' : undefined;

const oauth2Options: OAuth2OptionsSchema = z.strictObject({
  tokenUrl: z.string({ error: requiredWithOAuth2 }).meta({
    description:
      "The provider's token endpoint (https), where access tokens for IMAP and SMTP are refreshed; with it, both log in with XOAUTH2",
    placeholder: 'URL',
    env: 'TOOLSHED_EMAIL_OAUTH2_TOKEN_URL',
  }),
  clientId: z.string({ error: requiredWithOAuth2 }).meta({
    description: 'The OAuth2 client id the refresh token was issued to',
    placeholder: 'ID',
    env: 'TOOLSHED_EMAIL_OAUTH2_CLIENT_ID',
  }),
  clientSecret: z.string().optional().meta({
    description: 'The OAuth2 client secret, when the client has one',
    flag: false,
    env: 'TOOLSHED_EMAIL_OAUTH2_CLIENT_SECRET',
  }),
  refreshToken: z.string({ error: requiredWithOAuth2 }).meta({
    description: 'The OAuth2 refresh token',
    flag: false,
    env: 'TOOLSHED_EMAIL_OAUTH2_REFRESH_TOKEN',
  }),
});

/** Where IMAP and SMTP access tokens are refreshed, and with what. */
export type OAuth2Options = z.input<OAuth2OptionsSchema>;

type Limit = z.ZodDefault<z.ZodNumber>;

type EmailLimitsShape = {
  maxRecipients: Limit;
  maxMessageBytes: Limit;
  maxAttachments: Limit;
  maxAttachmentBytes: Limit;
  sendsPerMinute: Limit;
  sendsPerHour: Limit;
  smtpTimeoutMs: Limit;
  maxSearchResults: Limit;
  maxBodyCharacters: Limit;
  maxSavedAttachmentBytes: Limit;
  maxCallBytes: Limit;
  maxMailboxes: Limit;
  imapTimeoutMs: Limit;
};

type SendLogCallback = (entry: SendLogEntry) => void;

type EmailServerOptionsShape = {
  from: z.ZodOptional<z.ZodString>;
  smtp: z.ZodOptional<SmtpOptionsSchema>;
  outboxDirectory: z.ZodOptional<z.ZodString>;
  allowRecipients: z.ZodOptional<z.ZodReadonly<z.ZodArray<z.ZodString>>>;
  allowAnyRecipient: z.ZodDefault<z.ZodBoolean>;
  skipConfirmation: z.ZodDefault<z.ZodBoolean>;
  attachmentsDirectory: z.ZodOptional<z.ZodString>;
  logRecipients: z.ZodDefault<z.ZodEnum<{ hash: 'hash'; domain: 'domain'; full: 'full' }>>;
  log: z.ZodOptional<z.ZodCustom<SendLogCallback, SendLogCallback>>;
  dnsServers: z.ZodOptional<z.ZodReadonly<z.ZodArray<z.ZodString>>>;
  imap: z.ZodOptional<ImapOptionsSchema>;
  oauth2: z.ZodOptional<OAuth2OptionsSchema>;
  saveDirectory: z.ZodOptional<z.ZodString>;
  allowMailboxChanges: z.ZodDefault<z.ZodBoolean>;
  state: z.ZodOptional<z.ZodString>;
  limits: z.ZodPrefault<z.ZodObject<EmailLimitsShape, z.core.$strict>>;
};

/**
 * Everything `createEmailServer` accepts. Strict: an unknown key, such as a
 * misspelt limit, is refused with the closest valid name rather than ignored.
 * The bin's flags, their environment twins, --help and the README's options
 * table come from it.
 *
 * @example
 * const options = parseOptions(emailServerOptions, input, '@toolshed/server-email options');
 */
export const emailServerOptions: z.ZodObject<EmailServerOptionsShape, z.core.$strict> = z.strictObject({
  from: z.string().optional().meta({
    description:
      'The sender, `Name <address>` or an address; no tool can change it. Required with SMTP (outbox: outbox@toolshed.invalid)',
    placeholder: 'ADDRESS',
  }),
  smtp: smtpOptions.optional().meta({ description: 'Deliver through this SMTP server instead of the outbox' }),
  outboxDirectory: z.string().optional().meta({
    description:
      'Without SMTP, each message is written here as an .eml file (created, mode 0700); default ~/.local/state/toolshed/email-outbox. With SMTP, a send whose outcome is unknown is kept here',
    flag: 'outbox',
    placeholder: 'DIR',
  }),
  allowRecipients: z.array(z.string()).readonly().optional().meta({
    description:
      'Who may receive mail: `alice@example.com`, `example.com` (or `@example.com`), `*.example.com`; default only the sender',
    placeholder: 'ENTRY',
  }),
  allowAnyRecipient: z.boolean().default(false).meta({ description: 'Lift the allowlist: send to any valid address' }),
  skipConfirmation: z
    .boolean()
    .default(false)
    .meta({ description: 'Send without asking the user first (and from clients that cannot ask)' }),
  attachmentsDirectory: z.string().optional().meta({
    description: 'The only directory attachments may come from; without it, attachments are refused',
    flag: 'attachments',
    placeholder: 'DIR',
  }),
  logRecipients: z
    .enum(['hash', 'domain', 'full'])
    .default('hash')
    .meta({ description: 'How the send log shows recipients: hashed, their domain only, or in full' }),
  // A callback stays a callback: only checked to be callable.
  log: z
    .custom<SendLogCallback>((value) => typeof value === 'function', { error: 'Expected a function' })
    .optional()
    .meta({ description: 'Receives each send-log entry; default one JSON line on stderr' }),
  dnsServers: z.array(z.string()).readonly().optional().meta({
    description: 'DNS servers for the domain checks of validate_recipients; default the system resolver',
    placeholder: 'IP[:PORT]',
  }),
  imap: imapOptions.optional().meta({ description: 'Read mail from this IMAP server' }),
  oauth2: oauth2Options.optional().meta({
    description: 'Log in to IMAP and SMTP with OAuth2 access tokens, refreshed as they expire',
  }),
  saveDirectory: z.string().optional().meta({
    description: 'The only directory save_attachment may write to; without it, attachments cannot be saved',
    flag: 'save-dir',
    placeholder: 'DIR',
  }),
  allowMailboxChanges: z.boolean().default(false).meta({
    description:
      'Offer move_message, flag_message, delete_message and save_draft; each change still needs the user to say yes',
  }),
  state: z
    .string()
    .check((check) => {
      const problem = stateLocationProblem(check.value);
      // The value is not repeated in the message: a URL may hold a password.
      if (problem !== undefined) check.issues.push({ code: 'custom', message: problem, input: '', continue: false });
    })
    .optional()
    .meta({
      description:
        'Where idempotency keys and sends in doubt are kept, across restarts and replicas: a postgres:// URL (password in PGPASSWORD) or SQLite file; default ~/.local/state/toolshed/state.db',
      placeholder: 'URL|FILE',
    }),
  limits: z
    .strictObject({
      maxRecipients: limitOption(
        20,
        'Recipients a message may have, To, Cc and Bcc together (an address counted once)',
      ),
      maxMessageBytes: limitOption(25_000_000, 'Bytes a message may have as sent, encoded attachments included'),
      maxAttachments: limitOption(10, 'Attachments a message may have'),
      maxAttachmentBytes: limitOption(10 * 1024 * 1024, 'Bytes each attachment may have, checked before it is read'),
      sendsPerMinute: limitOption(5, 'Sends in any 60 seconds (a sliding window)'),
      sendsPerHour: limitOption(30, 'Sends in any hour'),
      smtpTimeoutMs: limitOption(30_000, 'Milliseconds to connect, for the greeting, and for each SMTP reply'),
      maxSearchResults: limitOption(50, 'Messages one search may return'),
      maxBodyCharacters: limitOption(20_000, 'Characters of a message body read_message may return'),
      maxSavedAttachmentBytes: limitOption(25_000_000, 'Bytes an attachment may have to be saved'),
      maxCallBytes: limitOption(50_000_000, 'Bytes one call may fetch from the IMAP server'),
      maxMailboxes: limitOption(500, 'Mailboxes list_mailboxes may return'),
      imapTimeoutMs: limitOption(30_000, 'Milliseconds to connect, for the greeting, and for each IMAP reply'),
    })
    .prefault({})
    .meta({
      flagPrefix: '',
      description: 'How much a message may hold, how often mail may go out, and how much reading may fetch',
    }),
});

export type EmailServerOptions = z.input<typeof emailServerOptions>;

/** How much a message, a call and an hour may hold, with every default filled in. */
export type EmailLimits = z.output<typeof emailServerOptions>['limits'];

export function defaultOutboxDirectory(environment: NodeJS.ProcessEnv = process.env): string {
  const stateHome = environment.XDG_STATE_HOME ?? join(homedir(), '.local', 'state');
  return join(stateHome, 'toolshed', 'email-outbox');
}

export const defaultOutboxSender = 'outbox@toolshed.invalid';
