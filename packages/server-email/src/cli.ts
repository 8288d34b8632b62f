/**
 * The `toolshed-email` bin: flags and environment → checkEmailDelivery →
 * createEmailServer → stdio, or Streamable HTTP with --http.
 */
import { readFileSync } from 'node:fs';
import { defineCli, httpCliOptions, LocalError, limitOption, runCli, serve } from '@toolshed/mcp-core';
import { checkEmailDelivery, createEmailServer } from './create-email-server.ts';
import { defaultEmailLimits, type EmailServerOptions, type SmtpOptions } from './email-server-options.ts';
import { parseSmtpUrl } from './smtp-url.ts';

const limits = defaultEmailLimits;

const cli = defineCli({
  name: 'toolshed-email',
  version: '0.1.0',
  summary:
    'Email that asks before it sends, to allowed recipients only, as an MCP server over stdio or Streamable HTTP',
  options: {
    from: {
      type: 'string',
      env: 'TOOLSHED_EMAIL_FROM',
      placeholder: 'ADDRESS',
      description:
        'The sender, "Name <address>" or an address; required with SMTP (outbox default: outbox@toolshed.invalid)',
    },
    smtpHost: {
      type: 'string',
      env: 'TOOLSHED_EMAIL_SMTP_HOST',
      placeholder: 'HOST',
      description:
        'Send through this SMTP server (or set TOOLSHED_EMAIL_SMTP_URL); without either, write to the outbox',
    },
    smtpPort: {
      type: 'number',
      env: 'TOOLSHED_EMAIL_SMTP_PORT',
      placeholder: 'PORT',
      description: 'Default 587, or 465 with --smtp-security tls',
    },
    smtpSecurity: {
      type: 'string',
      env: 'TOOLSHED_EMAIL_SMTP_SECURITY',
      placeholder: 'starttls|tls|none',
      description:
        'starttls (default: required, never silently plain), tls (port 465), none (a relay on this machine only)',
    },
    smtpUser: {
      type: 'string',
      env: 'TOOLSHED_EMAIL_SMTP_USER',
      placeholder: 'USER',
      description: 'Login; the password comes from TOOLSHED_EMAIL_SMTP_PASSWORD',
    },
    smtpCa: {
      type: 'string',
      env: 'TOOLSHED_EMAIL_SMTP_CA',
      placeholder: 'FILE',
      description: 'PEM certificates to trust for the SMTP server besides the system ones (a private CA)',
    },
    outbox: {
      type: 'string',
      env: 'TOOLSHED_EMAIL_OUTBOX',
      placeholder: 'DIR',
      description:
        'Without SMTP: write each message here as an .eml file (default ~/.local/state/toolshed/email-outbox)',
    },
    allowRecipients: {
      type: 'list',
      env: 'TOOLSHED_EMAIL_ALLOW_RECIPIENTS',
      placeholder: 'ENTRY',
      description:
        'Who may receive mail: alice@example.com, example.com, *.example.com (repeat, or comma-separate in the variable). Default: only the sender',
    },
    allowAnyRecipient: {
      type: 'boolean',
      env: 'TOOLSHED_EMAIL_ALLOW_ANY_RECIPIENT',
      default: false,
      description: 'Lift the allowlist: send to any valid address',
    },
    skipConfirmation: {
      type: 'boolean',
      env: 'TOOLSHED_EMAIL_SKIP_CONFIRMATION',
      default: false,
      description: 'Send without asking the user first (and from clients that cannot ask)',
    },
    attachments: {
      type: 'string',
      env: 'TOOLSHED_EMAIL_ATTACHMENTS',
      placeholder: 'DIR',
      description: 'The only directory attachments may come from; without it, attachments are refused',
    },
    logRecipients: {
      type: 'string',
      env: 'TOOLSHED_EMAIL_LOG_RECIPIENTS',
      placeholder: 'hash|domain|full',
      default: 'hash',
      description: 'How the send log on stderr shows recipients',
    },
    dnsServers: {
      type: 'list',
      env: 'TOOLSHED_EMAIL_DNS_SERVERS',
      placeholder: 'IP[:PORT]',
      description: 'DNS servers for validate_recipients domain checks (default: the system resolver)',
    },
    maxRecipients: limitOption(
      'TOOLSHED_EMAIL_MAX_RECIPIENTS',
      'Recipients a message, To, Cc and Bcc together',
      limits.maxRecipients,
    ),
    maxMessageBytes: limitOption(
      'TOOLSHED_EMAIL_MAX_MESSAGE_BYTES',
      'Bytes a message may have as sent',
      limits.maxMessageBytes,
    ),
    maxAttachments: limitOption('TOOLSHED_EMAIL_MAX_ATTACHMENTS', 'Attachments a message', limits.maxAttachments),
    maxAttachmentBytes: limitOption(
      'TOOLSHED_EMAIL_MAX_ATTACHMENT_BYTES',
      'Bytes each attachment may have',
      limits.maxAttachmentBytes,
    ),
    sendsPerMinute: limitOption('TOOLSHED_EMAIL_SENDS_PER_MINUTE', 'Sends in any 60 seconds', limits.sendsPerMinute),
    sendsPerHour: limitOption('TOOLSHED_EMAIL_SENDS_PER_HOUR', 'Sends in any hour', limits.sendsPerHour),
    smtpTimeoutMs: limitOption(
      'TOOLSHED_EMAIL_SMTP_TIMEOUT_MS',
      'Milliseconds to connect, for the greeting, and for each SMTP reply',
      limits.smtpTimeoutMs,
    ),
    ...httpCliOptions,
  },
  examples: [
    'toolshed-email --allow-recipients me@example.com',
    'TOOLSHED_EMAIL_SMTP_PASSWORD=… toolshed-email --from "Assistant <bot@example.com>" --smtp-host smtp.example.com --smtp-user bot@example.com --allow-recipients example.com',
    'TOOLSHED_EMAIL_SMTP_URL=smtps://bot%40example.com:…@smtp.example.com:465 toolshed-email --from bot@example.com --attachments ~/Outgoing',
  ],
});

function smtpFromConfig(
  values: { smtpHost?: string; smtpPort?: number; smtpSecurity?: string; smtpUser?: string; smtpCa?: string },
  env: NodeJS.ProcessEnv,
): SmtpOptions | undefined {
  const security = values.smtpSecurity;
  if (security !== undefined && security !== 'starttls' && security !== 'tls' && security !== 'none') {
    throw new LocalError('config_invalid', `--smtp-security must be starttls, tls or none; got ${security}`);
  }
  const url = env.TOOLSHED_EMAIL_SMTP_URL;
  const base: SmtpOptions | undefined =
    url !== undefined && url !== ''
      ? parseSmtpUrl(url)
      : values.smtpHost === undefined
        ? undefined
        : { host: values.smtpHost };
  if (base === undefined) {
    if (values.smtpUser !== undefined || values.smtpPort !== undefined) {
      throw new LocalError(
        'config_invalid',
        'SMTP settings were given without --smtp-host (or TOOLSHED_EMAIL_SMTP_URL)',
      );
    }
    return undefined;
  }
  let ca: string | undefined;
  if (values.smtpCa !== undefined) {
    try {
      ca = readFileSync(values.smtpCa, 'utf8');
    } catch (error) {
      throw new LocalError('config_invalid', `--smtp-ca ${values.smtpCa} cannot be read: ${(error as Error).message}`);
    }
  }
  return {
    ...base,
    ...(values.smtpHost === undefined ? {} : { host: values.smtpHost }),
    ...(values.smtpPort === undefined ? {} : { port: values.smtpPort }),
    ...(security === undefined ? {} : { security }),
    ...(values.smtpUser === undefined ? {} : { user: values.smtpUser }),
    ...(env.TOOLSHED_EMAIL_SMTP_PASSWORD === undefined ? {} : { password: env.TOOLSHED_EMAIL_SMTP_PASSWORD }),
    ...(ca === undefined ? {} : { ca }),
  };
}

await runCli(cli, process.argv.slice(2), process.env, async (values) => {
  const { logRecipients } = values;
  if (logRecipients !== 'hash' && logRecipients !== 'domain' && logRecipients !== 'full') {
    throw new LocalError('config_invalid', `--log-recipients must be hash, domain or full; got ${logRecipients}`);
  }
  const options: EmailServerOptions = {
    from: values.from,
    smtp: smtpFromConfig(values, process.env),
    outboxDirectory: values.outbox,
    allowRecipients: values.allowRecipients,
    allowAnyRecipient: values.allowAnyRecipient,
    skipConfirmation: values.skipConfirmation,
    attachmentsDirectory: values.attachments,
    logRecipients,
    dnsServers: values.dnsServers,
    limits: {
      maxRecipients: values.maxRecipients,
      maxMessageBytes: values.maxMessageBytes,
      maxAttachments: values.maxAttachments,
      maxAttachmentBytes: values.maxAttachmentBytes,
      sendsPerMinute: values.sendsPerMinute,
      sendsPerHour: values.sendsPerHour,
      smtpTimeoutMs: values.smtpTimeoutMs,
    },
  };
  await checkEmailDelivery(options);
  return serve(createEmailServer(options), values);
});
