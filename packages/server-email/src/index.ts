/**
 * An email MCP server that a model cannot turn against its user: a fixed
 * sender, a recipient allowlist, a human yes before each send, no header
 * injection, attachments from one directory only, caps, rate limits and
 * idempotent retries; SMTP through nodemailer or an outbox of .eml files;
 * mail read over IMAP without changing it, sender text fenced, mailbox
 * changes only with the user's yes.
 *
 * @module
 */
export { checkEmailDelivery, createEmailServer, type EmailServerRuntime } from './create-email-server.ts';
export type {
  EmailLimits,
  EmailServerOptions,
  ImapOptions,
  OAuth2Options,
  RecipientLogging,
  SendLogEntry,
  SmtpOptions,
} from './email-server-options.ts';
export { emailServerOptions } from './email-server-options.ts';
