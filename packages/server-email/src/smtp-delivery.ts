import { LocalError, ToolError } from '@toolshed/mcp-core';
import type { createTransport } from 'nodemailer';
import type { SmtpOptions } from './email-server-options.ts';
import { type MailDelivery, UncertainDeliveryError } from './mail-delivery.ts';
import type { OAuth2TokenSource } from './oauth2-token-source.ts';

interface SmtpFailure extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
  command?: string;
  rejected?: string[];
  rejectedErrors?: SmtpFailure[];
}

function describeFailure(failure: SmtpFailure): string {
  return failure.response ?? failure.message;
}

type Transport = ReturnType<typeof createTransport>;

/**
 * A password login, or XOAUTH2 with tokens from the server's one source.
 * nodemailer asks again with `renew` once when the server refuses a token
 * (and never more for one login): only then is the token it was given
 * passed back as refused, so the source refreshes it.
 */
function smtpLogin(user: string, password: string | undefined, tokens: OAuth2TokenSource | undefined) {
  if (tokens === undefined) return { user, pass: password ?? '' };
  let offered: string | undefined;
  return {
    type: 'OAuth2' as const,
    user,
    provisionCallback(
      _user: string,
      renew: boolean,
      callback: (error: Error | null, accessToken?: string, expires?: number) => void,
    ) {
      tokens.token({ refused: renew ? offered : undefined }).then(
        (token) => {
          offered = token.value;
          callback(null, token.value, token.expiresAt);
        },
        (error: Error) => callback(error),
      );
    },
  };
}

/**
 * A logger for one send that notes only whether the client sent `DATA`:
 * after it, the message may have been accepted even when no reply came.
 */
function dataWatcher(): { readonly sent: boolean; logger: Record<string, (...entry: unknown[]) => void> } {
  const watcher = {
    sent: false,
    logger: {
      debug(entry: unknown, message: unknown) {
        if ((entry as { tnx?: string } | undefined)?.tnx === 'client' && String(message).toUpperCase() === 'DATA') {
          watcher.sent = true;
        }
      },
      trace() {},
      info() {},
      warn() {},
      error() {},
      fatal() {},
    },
  };
  return watcher;
}

/**
 * SMTP through nodemailer, one connection a send: TLS as the operator chose
 * it (STARTTLS required by default, never silently plain), certificates
 * verified, timeouts on connecting, the greeting and every reply, no file or
 * URL access from message content. A failure before `DATA` surely sent
 * nothing; a broken connection or a lost reply after it is uncertain.
 */
export function createSmtpDelivery(options: SmtpOptions, timeoutMs: number, tokens?: OAuth2TokenSource): MailDelivery {
  const security = options.security ?? 'starttls';
  const port = options.port ?? (security === 'tls' ? 465 : 587);
  if (tokens !== undefined && options.user === undefined) {
    throw new LocalError('config_invalid', 'OAuth2 for SMTP needs the login: set --smtp-user');
  }
  const settings = {
    host: options.host,
    port,
    secure: security === 'tls',
    requireTLS: security === 'starttls',
    ignoreTLS: security === 'none',
    ...(options.user === undefined ? {} : { auth: smtpLogin(options.user, options.password, tokens) }),
    tls: { minVersion: 'TLSv1.2' as const, ...(options.ca === undefined ? {} : { ca: options.ca }) },
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
  };
  // Created by the first check, so that nodemailer and the network modules it brings load then, not at start.
  let transport: Promise<Transport> | undefined;
  const where = `${options.host}:${port}`;
  return {
    kind: 'smtp',
    async verify() {
      transport ??= import('nodemailer').then(({ createTransport }) => createTransport(settings));
      const checking = await transport;
      try {
        await checking.verify();
      } catch (error) {
        const failure = error as SmtpFailure;
        const what =
          failure.code === 'EAUTH'
            ? `refused the login; check the user and ${tokens === undefined ? 'TOOLSHED_EMAIL_SMTP_PASSWORD' : `the OAuth2 settings (${tokens.redact(describeFailure(failure))})`}`
            : failure.code === 'ETLS' || /STARTTLS/i.test(failure.message)
              ? `has no working TLS (${failure.message}); use --smtp-security tls for port 465, or none only for a relay on this machine`
              : `cannot be used: ${describeFailure(failure)}`;
        throw new LocalError('config_invalid', `SMTP server ${where} ${what}`);
      }
    },
    async deliver(message) {
      // A transport of its own, so that what its log says is about this message alone.
      const data = dataWatcher();
      const { createTransport } = await import('nodemailer');
      const sending = createTransport({ ...settings, logger: data.logger, transactionLog: true });
      try {
        const info = await sending.sendMail({ envelope: message.envelope, raw: message.raw });
        const rejectedErrors = ((info as { rejectedErrors?: SmtpFailure[] }).rejectedErrors ?? []).map(describeFailure);
        return {
          accepted: info.accepted.map(String),
          rejected: info.rejected.map((address, index) => ({
            address: String(address),
            reason: rejectedErrors[index] ?? 'rejected by the server',
          })),
          response: info.response,
        };
      } catch (error) {
        const failure = error as SmtpFailure;
        if (!data.sent || failure.responseCode !== undefined) {
          const rejected = failure.rejected?.length ? ` (refused: ${failure.rejected.join(', ')})` : '';
          throw new ToolError(
            `The SMTP server did not take the message${rejected}: ${describeFailure(failure)}. Nothing was sent.`,
          );
        }
        throw new UncertainDeliveryError(
          `The connection to the SMTP server ${where} ended after the message was handed over (${failure.code ?? failure.message}), before the server confirmed it: it may have been sent.`,
        );
      } finally {
        sending.close();
      }
    },
    close() {
      void transport?.then(
        (created) => created.close(),
        () => undefined,
      );
    },
  };
}
