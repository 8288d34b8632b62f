import { homedir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';

/** How much a message, a call and an hour may hold. Every one has a flag. */
export interface EmailLimits {
  /** To, Cc and Bcc together. */
  maxRecipients: number;
  /** The whole message as sent, encoded attachments included. */
  maxMessageBytes: number;
  maxAttachments: number;
  /** Each attachment, before encoding. */
  maxAttachmentBytes: number;
  sendsPerMinute: number;
  sendsPerHour: number;
  /** Connecting, the greeting and each SMTP reply. */
  smtpTimeoutMs: number;
}

export const defaultEmailLimits: EmailLimits = {
  maxRecipients: 20,
  maxMessageBytes: 25_000_000,
  maxAttachments: 10,
  maxAttachmentBytes: 10 * 1024 * 1024,
  sendsPerMinute: 5,
  sendsPerHour: 30,
  smtpTimeoutMs: 30_000,
};

/** How recipients appear in the send log on stderr. */
export type RecipientLogging = NonNullable<EmailServerOptions['logRecipients']>;

/** One line of the send log: every send, refusal and failure. */
export interface SendLogEntry {
  time: string;
  event: 'sent' | 'failed' | 'refused' | 'declined' | 'replayed';
  delivery: 'smtp' | 'outbox';
  messageId?: string | undefined;
  /** Hashed (`sha256:` and 16 hex digits of the lower-case address), domain only, or in full, per `logRecipients`. */
  recipients: string[];
  attachments: number;
  bytes?: number | undefined;
  durationMs: number;
  reason?: string | undefined;
}

type SmtpOptionsSchema = z.ZodObject<
  {
    host: z.ZodString;
    /** Default: 465 with `tls`, else 587. */
    port: z.ZodOptional<z.ZodNumber>;
    /**
     * `starttls` (default): upgrade with STARTTLS and refuse to go on without it.
     * `tls`: TLS from the first byte (port 465). `none`: plain text, for a relay
     * on this machine only.
     */
    security: z.ZodOptional<z.ZodEnum<{ starttls: 'starttls'; tls: 'tls'; none: 'none' }>>;
    user: z.ZodOptional<z.ZodString>;
    password: z.ZodOptional<z.ZodString>;
    /** PEM certificates to trust besides the system's, for a server with a private CA. */
    ca: z.ZodOptional<z.ZodString>;
  },
  z.core.$strict
>;

const smtpOptions: SmtpOptionsSchema = z.strictObject({
  host: z.string(),
  port: z.number().optional(),
  security: z.enum(['starttls', 'tls', 'none']).optional(),
  user: z.string().optional(),
  password: z.string().optional(),
  ca: z.string().optional(),
});

/** Where SMTP delivery goes and how it logs in. */
export type SmtpOptions = z.input<SmtpOptionsSchema>;

// Whole numbers of at least 1 are checked where the defaults are applied (resolveLimits), with that message.
type EmailLimitsSchema = z.ZodObject<{ [Key in keyof EmailLimits]: z.ZodOptional<z.ZodNumber> }, z.core.$strict>;

const emailLimits: EmailLimitsSchema = z.strictObject({
  maxRecipients: z.number().optional(),
  maxMessageBytes: z.number().optional(),
  maxAttachments: z.number().optional(),
  maxAttachmentBytes: z.number().optional(),
  sendsPerMinute: z.number().optional(),
  sendsPerHour: z.number().optional(),
  smtpTimeoutMs: z.number().optional(),
});

type SendLogCallback = (entry: SendLogEntry) => void;

type EmailServerOptionsSchema = z.ZodObject<
  {
    /**
     * The sender, `Name <address>` or an address; no tool can change it.
     * Required with SMTP; in outbox mode, `outbox@toolshed.invalid`.
     */
    from: z.ZodOptional<z.ZodString>;
    /** Deliver through this SMTP server. Without it, messages are written to the outbox. */
    smtp: z.ZodOptional<SmtpOptionsSchema>;
    /** Where outbox mode writes one `.eml` file a message. Default: `~/.local/state/toolshed/email-outbox` (created). */
    outboxDirectory: z.ZodOptional<z.ZodString>;
    /** Addresses (`alice@example.com`), domains (`example.com`) and subdomains (`*.example.com`) that may receive mail. */
    allowRecipients: z.ZodOptional<z.ZodReadonly<z.ZodArray<z.ZodString>>>;
    /** Lifts the allowlist: any syntactically valid recipient. Default: false. */
    allowAnyRecipient: z.ZodOptional<z.ZodBoolean>;
    /** Sends without asking the user first. Default: false, every send is confirmed through the client. */
    skipConfirmation: z.ZodOptional<z.ZodBoolean>;
    /** The only directory attachments are read from. Without it, attachments are refused. */
    attachmentsDirectory: z.ZodOptional<z.ZodString>;
    limits: z.ZodOptional<EmailLimitsSchema>;
    /** Default: `hash`. */
    logRecipients: z.ZodOptional<z.ZodEnum<{ hash: 'hash'; domain: 'domain'; full: 'full' }>>;
    /** Receives each send-log entry. Default: one JSON line on stderr. */
    log: z.ZodOptional<z.ZodCustom<SendLogCallback, SendLogCallback>>;
    /** DNS servers for `validate_recipients`' domain checks (`IP` or `IP:PORT`). Default: the system's. */
    dnsServers: z.ZodOptional<z.ZodReadonly<z.ZodArray<z.ZodString>>>;
  },
  z.core.$strict
>;

/**
 * Everything `createEmailServer` accepts. Strict: an unknown key, such as a
 * misspelt limit, is refused with the closest valid name rather than ignored.
 *
 * @example
 * const options = parseOptions(emailServerOptions, input, '@toolshed/server-email options');
 */
export const emailServerOptions: EmailServerOptionsSchema = z.strictObject({
  from: z.string().optional(),
  smtp: smtpOptions.optional(),
  outboxDirectory: z.string().optional(),
  allowRecipients: z.array(z.string()).readonly().optional(),
  allowAnyRecipient: z.boolean().optional(),
  skipConfirmation: z.boolean().optional(),
  attachmentsDirectory: z.string().optional(),
  limits: emailLimits.optional(),
  logRecipients: z.enum(['hash', 'domain', 'full']).optional(),
  // A callback stays a callback: only checked to be callable.
  log: z.custom<SendLogCallback>((value) => typeof value === 'function', { error: 'Expected a function' }).optional(),
  dnsServers: z.array(z.string()).readonly().optional(),
});

export type EmailServerOptions = z.input<EmailServerOptionsSchema>;

export function defaultOutboxDirectory(environment: NodeJS.ProcessEnv = process.env): string {
  const stateHome = environment.XDG_STATE_HOME ?? join(homedir(), '.local', 'state');
  return join(stateHome, 'toolshed', 'email-outbox');
}

export const defaultOutboxSender = 'outbox@toolshed.invalid';
