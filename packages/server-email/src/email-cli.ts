import { readFileSync } from 'node:fs';
import { defineServerCli, LocalError, packageVersion, type ServerCli } from '@toolshed/mcp-core';
import { emailServerOptions } from './email-server-options.ts';

function readCertificates(flag: string, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new LocalError('config_invalid', `${flag} ${path} cannot be read: ${(error as Error).message}`);
  }
}

const derived = defineServerCli({
  name: 'toolshed-email',
  version: packageVersion(import.meta.url),
  summary:
    'Email that asks before it sends, to allowed recipients only, as an MCP server over stdio or Streamable HTTP',
  options: emailServerOptions,
  envPrefix: 'TOOLSHED_EMAIL',
  // The bin takes a file; the library takes the certificates themselves.
  readers: {
    'smtp.ca': { type: 'string', read: (path) => readCertificates('--smtp-ca', String(path)) },
    'imap.ca': { type: 'string', read: (path) => readCertificates('--imap-ca', String(path)) },
  },
  examples: [
    'toolshed-email --allow-recipients me@example.com',
    'TOOLSHED_EMAIL_SMTP_PASSWORD=… toolshed-email --from "Assistant <bot@example.com>" --smtp-host smtp.example.com --smtp-user bot@example.com --allow-recipients example.com',
    'TOOLSHED_EMAIL_SMTP_URL=smtps://bot%40example.com:…@smtp.example.com:465 toolshed-email --from bot@example.com --attachments ~/Outgoing',
    'TOOLSHED_EMAIL_IMAP_PASSWORD=… toolshed-email --imap-host imap.fastmail.com --imap-user me@fastmail.com --save-dir ~/Downloads/Mail',
  ],
});

/**
 * The `toolshed-email` bin, derived from the options schema, with the two
 * settings the schema has no key for: the SMTP and IMAP servers as URLs,
 * which the bin spreads over their variables before reading them.
 */
export const emailCli: ServerCli<typeof emailServerOptions> = {
  ...derived,
  spec: {
    ...derived.spec,
    environment: [
      ...(derived.spec.environment ?? []),
      {
        name: 'TOOLSHED_EMAIL_SMTP_URL',
        description:
          'smtp://user:password@host:587 (STARTTLS) or smtps://…:465 (TLS), as providers print it; other SMTP settings win',
      },
      {
        name: 'TOOLSHED_EMAIL_IMAP_URL',
        description:
          'imaps://user:password@host:993 (TLS) or imap://…:143 (STARTTLS), as providers print it; other IMAP settings win',
      },
    ],
  },
};
