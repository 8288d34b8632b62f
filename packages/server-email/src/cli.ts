/**
 * The `toolshed-email` bin: flags and environment → checkEmailDelivery →
 * createEmailServer → stdio, or Streamable HTTP with --http.
 * The run is the default export, for the bundle's start module to wait on.
 */
import { runServerCli, serve } from '@toolshed/mcp-core';
import { checkEmailDelivery, createEmailServer } from './create-email-server.ts';
import { emailCli } from './email-cli.ts';
import { parseImapUrl } from './imap-url.ts';
import { parseSmtpUrl } from './smtp-url.ts';

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * TOOLSHED_EMAIL_SMTP_URL and TOOLSHED_EMAIL_IMAP_URL spread over the
 * variables they stand for, so the options schema reads them as it reads
 * those; a variable or flag that is set itself wins over the URL's part.
 */
function withServerUrls(env: Environment): Environment {
  const merged: Record<string, string | undefined> = { ...env };
  const spread = (
    prefix: 'SMTP' | 'IMAP',
    url: {
      host?: string | undefined;
      port?: number | undefined;
      security?: string | undefined;
      user?: string | undefined;
      password?: string | undefined;
    },
  ) => {
    const parts: Record<string, string | undefined> = {
      HOST: url.host,
      PORT: url.port?.toString(),
      SECURITY: url.security,
      USER: url.user,
      PASSWORD: url.password,
    };
    for (const [part, value] of Object.entries(parts)) {
      const name = `TOOLSHED_EMAIL_${prefix}_${part}`;
      if (value !== undefined && (merged[name] === undefined || merged[name] === '')) merged[name] = value;
    }
  };
  const smtpUrl = env.TOOLSHED_EMAIL_SMTP_URL;
  if (smtpUrl !== undefined && smtpUrl !== '') spread('SMTP', parseSmtpUrl(smtpUrl));
  const imapUrl = env.TOOLSHED_EMAIL_IMAP_URL;
  if (imapUrl !== undefined && imapUrl !== '') spread('IMAP', parseImapUrl(imapUrl));
  return merged;
}

let environment: Environment = process.env;
let smtpUrlProblem: unknown;
try {
  environment = withServerUrls(process.env);
} catch (error) {
  // Raised inside the run, so it exits 2 with one line like every other configuration mistake (and --help still works).
  smtpUrlProblem = error;
}

const run: Promise<void> = runServerCli(emailCli, process.argv.slice(2), environment, async (options, http) => {
  if (smtpUrlProblem !== undefined) throw smtpUrlProblem;
  await checkEmailDelivery(options);
  return serve(createEmailServer(options), http);
});

export default run;
