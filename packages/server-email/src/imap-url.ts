import { LocalError } from '@toolshed/mcp-core';
import type { ImapOptions } from './email-server-options.ts';

/**
 * `imaps://user:password@host:993` (TLS from the first byte) or
 * `imap://user:password@host:143` (STARTTLS required), as mail providers
 * print them; user and password percent-decoded.
 */
export function parseImapUrl(text: string): Partial<ImapOptions> {
  const url = URL.parse(text);
  if (url === null || (url.protocol !== 'imap:' && url.protocol !== 'imaps:') || url.hostname === '') {
    throw new LocalError(
      'config_invalid',
      'TOOLSHED_EMAIL_IMAP_URL must look like imaps://user:password@host:993 or imap://…:143 (STARTTLS)',
    );
  }
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    ...(url.port === '' ? {} : { port: Number(url.port) }),
    security: url.protocol === 'imaps:' ? 'tls' : 'starttls',
    ...(url.username === '' ? {} : { user: decodeURIComponent(url.username) }),
    ...(url.password === '' ? {} : { password: decodeURIComponent(url.password) }),
  };
}
