import { LocalError } from '@toolshed/mcp-core';
import type { SmtpOptions } from './email-server-options.ts';

/**
 * `smtp://user:password@host:587` (STARTTLS required) or
 * `smtps://user:password@host:465` (TLS from the start), as mail providers
 * print them; user and password percent-decoded.
 */
export function parseSmtpUrl(text: string): SmtpOptions {
  const url = URL.parse(text);
  if (url === null || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new LocalError(
      'config_invalid',
      'TOOLSHED_EMAIL_SMTP_URL must look like smtp://user:password@host:587 or smtps://…:465',
    );
  }
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    ...(url.port === '' ? {} : { port: Number(url.port) }),
    security: url.protocol === 'smtps:' ? 'tls' : 'starttls',
    ...(url.username === '' ? {} : { user: decodeURIComponent(url.username) }),
    ...(url.password === '' ? {} : { password: decodeURIComponent(url.password) }),
  };
}
