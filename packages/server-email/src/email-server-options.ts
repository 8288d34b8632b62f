import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where SMTP delivery goes and how it logs in. */
export interface SmtpOptions {
  host: string;
  /** Default: 465 with `tls`, else 587. */
  port?: number | undefined;
  /**
   * `starttls` (default): upgrade with STARTTLS and refuse to go on without it.
   * `tls`: TLS from the first byte (port 465). `none`: plain text, for a relay
   * on this machine only.
   */
  security?: 'starttls' | 'tls' | 'none' | undefined;
  user?: string | undefined;
  password?: string | undefined;
  /** PEM certificates to trust besides the system's, for a server with a private CA. */
  ca?: string | undefined;
}

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
export type RecipientLogging = 'hash' | 'domain' | 'full';

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

export interface EmailServerOptions {
  /**
   * The sender, `Name <address>` or an address; no tool can change it.
   * Required with SMTP; in outbox mode, `outbox@toolshed.invalid`.
   */
  from?: string | undefined;
  /** Deliver through this SMTP server. Without it, messages are written to the outbox. */
  smtp?: SmtpOptions | undefined;
  /** Where outbox mode writes one `.eml` file a message. Default: `~/.local/state/toolshed/email-outbox` (created). */
  outboxDirectory?: string | undefined;
  /** Addresses (`alice@example.com`), domains (`example.com`) and subdomains (`*.example.com`) that may receive mail. */
  allowRecipients?: readonly string[] | undefined;
  /** Lifts the allowlist: any syntactically valid recipient. Default: false. */
  allowAnyRecipient?: boolean | undefined;
  /** Sends without asking the user first. Default: false, every send is confirmed through the client. */
  skipConfirmation?: boolean | undefined;
  /** The only directory attachments are read from. Without it, attachments are refused. */
  attachmentsDirectory?: string | undefined;
  limits?: Partial<EmailLimits> | undefined;
  /** Default: `hash`. */
  logRecipients?: RecipientLogging | undefined;
  /** Receives each send-log entry. Default: one JSON line on stderr. */
  log?: ((entry: SendLogEntry) => void) | undefined;
  /** DNS servers for `validate_recipients`' domain checks (`IP` or `IP:PORT`). Default: the system's. */
  dnsServers?: readonly string[] | undefined;
}

export function defaultOutboxDirectory(environment: NodeJS.ProcessEnv = process.env): string {
  const stateHome = environment.XDG_STATE_HOME ?? join(homedir(), '.local', 'state');
  return join(stateHome, 'toolshed', 'email-outbox');
}

export const defaultOutboxSender = 'outbox@toolshed.invalid';
