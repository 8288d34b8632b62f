/**
 * The `toolshed-email` bin: flags and environment → checkEmailDelivery →
 * createEmailServer → stdio, or Streamable HTTP with --http.
 */
import { runServerCli, serve } from '@toolshed/mcp-core';
import { checkEmailDelivery, createEmailServer } from './create-email-server.ts';
import { emailCli } from './email-cli.ts';
import { parseSmtpUrl } from './smtp-url.ts';

type Environment = Readonly<Record<string, string | undefined>>;

/**
 * TOOLSHED_EMAIL_SMTP_URL spread over the SMTP variables it stands for, so
 * the options schema reads it as it reads them; a variable or flag that is
 * set itself wins over the URL's part.
 */
function withSmtpUrl(env: Environment): Environment {
  const url = env.TOOLSHED_EMAIL_SMTP_URL;
  if (url === undefined || url === '') return env;
  const smtp = parseSmtpUrl(url);
  const parts: Record<string, string | undefined> = {
    TOOLSHED_EMAIL_SMTP_HOST: smtp.host,
    TOOLSHED_EMAIL_SMTP_PORT: smtp.port?.toString(),
    TOOLSHED_EMAIL_SMTP_SECURITY: smtp.security,
    TOOLSHED_EMAIL_SMTP_USER: smtp.user,
    TOOLSHED_EMAIL_SMTP_PASSWORD: smtp.password,
  };
  const merged: Record<string, string | undefined> = { ...env };
  for (const [name, value] of Object.entries(parts)) {
    if (value !== undefined && (merged[name] === undefined || merged[name] === '')) merged[name] = value;
  }
  return merged;
}

let environment: Environment = process.env;
let smtpUrlProblem: unknown;
try {
  environment = withSmtpUrl(process.env);
} catch (error) {
  // Raised inside the run, so it exits 2 with one line like every other configuration mistake (and --help still works).
  smtpUrlProblem = error;
}

await runServerCli(emailCli, process.argv.slice(2), environment, async (options, http) => {
  if (smtpUrlProblem !== undefined) throw smtpUrlProblem;
  await checkEmailDelivery(options);
  return serve(createEmailServer(options), http);
});
