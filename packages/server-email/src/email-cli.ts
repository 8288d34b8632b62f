import { readFileSync } from 'node:fs';
import { defineServerCli, LocalError, packageVersion, type ServerCli } from '@toolshed/mcp-core';
import { emailServerOptions } from './email-server-options.ts';

function readCertificates(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new LocalError('config_invalid', `--smtp-ca ${path} cannot be read: ${(error as Error).message}`);
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
  readers: { 'smtp.ca': { type: 'string', read: (path) => readCertificates(String(path)) } },
  examples: [
    'toolshed-email --allow-recipients me@example.com',
    'TOOLSHED_EMAIL_SMTP_PASSWORD=… toolshed-email --from "Assistant <bot@example.com>" --smtp-host smtp.example.com --smtp-user bot@example.com --allow-recipients example.com',
    'TOOLSHED_EMAIL_SMTP_URL=smtps://bot%40example.com:…@smtp.example.com:465 toolshed-email --from bot@example.com --attachments ~/Outgoing',
  ],
});

/**
 * The `toolshed-email` bin, derived from the options schema, with the one
 * setting the schema has no key for: the SMTP server as a URL, which the bin
 * spreads over the SMTP variables before reading them.
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
    ],
  },
};
