import { LocalError, ToolError } from '@toolshed/mcp-core';
import type { ImapFlow, MailboxObject } from 'imapflow';
import type { ImapOptions } from './email-server-options.ts';
import type { OAuth2TokenSource } from './oauth2-token-source.ts';

/** What a failure from imapflow carries besides its message. */
interface ImapFailure extends Error {
  code?: string;
  authenticationFailed?: boolean;
  responseText?: string;
  serverResponseCode?: string;
  mailboxMissing?: boolean;
}

/** How a mailbox is opened: `EXAMINE` (nothing can change) or `SELECT`. */
export type MailboxMode = 'examine' | 'select';

/**
 * The one IMAP connection a server holds. Opened on the first call that
 * needs it, so the sending tools and `tools/list` never wait for it; dropped
 * when the server closes or a command fails, and opened again by the next
 * call. Calls run one at a time: a mailbox opened for one call stays the
 * selected mailbox until that call ends.
 */
export interface ImapConnection {
  /**
   * Runs `work` with `mailbox` opened as `mode` asks. A mailbox already open
   * the same way is used as it is, unless `reopen` asks for its state afresh
   * (its UIDVALIDITY above all).
   */
  withMailbox<Result>(
    mailbox: string,
    mode: MailboxMode,
    work: (client: ImapFlow, opened: MailboxObject) => Promise<Result>,
    options?: { reopen?: boolean },
  ): Promise<Result>;
  /** Runs `work` with no mailbox in particular. */
  withClient<Result>(work: (client: ImapFlow) => Promise<Result>): Promise<Result>;
  close(): Promise<void>;
}

const loopbackHosts = new Set(['127.0.0.1', '::1', '[::1]', 'localhost']);

/**
 * Refuses settings that would send the login in clear text anywhere but this
 * machine; returns the warning to print when plain text is used locally.
 */
export function checkImapSecurity(options: ImapOptions, refreshesTokens = false): string | undefined {
  if (options.host.trim() === '') throw new LocalError('config_invalid', 'The IMAP host is empty');
  if (options.password === undefined && options.accessToken === undefined && !refreshesTokens) {
    throw new LocalError(
      'config_invalid',
      'Set the IMAP password in TOOLSHED_EMAIL_IMAP_PASSWORD (or OAuth2: --oauth2-token-url, --oauth2-client-id and TOOLSHED_EMAIL_OAUTH2_REFRESH_TOKEN)',
    );
  }
  if (options.security !== 'none') return undefined;
  if (!loopbackHosts.has(options.host)) {
    throw new LocalError(
      'config_invalid',
      `--imap-security none is allowed only to 127.0.0.1 or ::1, not ${options.host}: use tls or starttls`,
    );
  }
  return `toolshed-email: IMAP to ${options.host} without TLS (--imap-security none): the login crosses the loopback in plain text`;
}

function describeFailure(failure: ImapFailure, where: string, timeoutMs: number): string {
  if (failure.authenticationFailed === true) {
    return `The IMAP server ${where} refused the login; check the user and TOOLSHED_EMAIL_IMAP_PASSWORD (or, with OAuth2, the token's scope)`;
  }
  switch (failure.code) {
    case 'CONNECT_TIMEOUT':
    case 'GREETING_TIMEOUT':
    case 'ETIMEOUT':
      return `The IMAP server ${where} did not answer within ${timeoutMs} ms (${failure.code}); try again later`;
    case 'ECONNREFUSED':
      return `Nothing accepts IMAP connections at ${where}`;
    case 'NoConnection':
    case 'EConnectionClosed':
    case 'ECONNRESET':
      return `The IMAP server ${where} closed the connection; try again`;
    default:
      break;
  }
  if (/STARTTLS/i.test(failure.message)) {
    return `The IMAP server ${where} does not offer a working STARTTLS (${failure.message}); nothing was sent in plain text`;
  }
  if (/certificate|self.signed|unable to verify|CERT_|altnames/i.test(`${failure.code ?? ''} ${failure.message}`)) {
    return `The IMAP server ${where} has a certificate this machine does not trust (${failure.code ?? failure.message}); give a private CA with --imap-ca`;
  }
  const said = failure.responseText ?? failure.message;
  return `The IMAP server ${where} failed: ${said}`;
}

/** A ToolError for a failure of the IMAP side, without secrets. */
export function imapToolError(error: unknown, where: string, timeoutMs: number): ToolError {
  if (ToolError.isInstance(error)) return error;
  return new ToolError(describeFailure(error as ImapFailure, where, timeoutMs));
}

/**
 * The connection for one server. `maxCallBytes` also bounds what the server
 * may send in one literal and one response, so a hostile server cannot make
 * the process hold more than a call may fetch.
 */
export function createImapConnection(
  options: ImapOptions,
  limits: { imapTimeoutMs: number; maxCallBytes: number },
  tokens?: OAuth2TokenSource,
): ImapConnection {
  const timeoutMs = limits.imapTimeoutMs;
  const security = options.security ?? 'tls';
  const port = options.port ?? (security === 'tls' ? 993 : 143);
  const where = `${options.host}:${port}`;
  const isAddress = /^[\d.]+$|:/.test(options.host);
  let client: ImapFlow | undefined;
  let opened: { path: string; mode: MailboxMode } | undefined;
  // Every call waits for the one before it: IMAP has one selected mailbox per connection.
  let queue: Promise<unknown> = Promise.resolve();

  function drop(target: ImapFlow): void {
    if (client !== target) return;
    client = undefined;
    opened = undefined;
    target.close();
  }

  // The last OAuth2 token offered, so that a refusal of it asks for a new one (and only of it).
  let offered: string | undefined;

  /** The login: a refreshed OAuth2 token, the access token given, or the password. */
  async function login(refused: string | undefined) {
    if (tokens !== undefined) {
      offered = (await tokens.token({ refused })).value;
      return { user: options.user, accessToken: offered };
    }
    return options.accessToken === undefined
      ? { user: options.user, pass: options.password ?? '' }
      : { user: options.user, accessToken: options.accessToken };
  }

  async function connected(): Promise<ImapFlow> {
    if (client?.usable === true) return client;
    if (client !== undefined) drop(client);
    try {
      return await connect(undefined);
    } catch (error) {
      // A token the server refused (expired early, or revoked) is refreshed and tried once more; never again.
      if (tokens === undefined || (error as ImapFailure).authenticationFailed !== true) throw error;
      return connect(offered);
    }
  }

  async function connect(refused: string | undefined): Promise<ImapFlow> {
    const auth = await login(refused);
    // Loaded on the first call that reads mail: a server that only sends never pays for them.
    const { ImapFlow: Client } = await import('imapflow');
    const { rootCertificates } = process.getBuiltinModule('node:tls');
    const fresh = new Client({
      host: options.host,
      port,
      secure: security === 'tls',
      doSTARTTLS: security === 'starttls' ? true : security === 'none' ? false : undefined,
      ...(isAddress ? {} : { servername: options.host }),
      auth,
      tls: {
        minVersion: 'TLSv1.2',
        rejectUnauthorized: true,
        ...(options.ca === undefined ? {} : { ca: [...rootCertificates, options.ca] }),
      },
      logger: false,
      disableAutoIdle: true,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      // Framing and headers come on top of the largest literal a call asks for.
      maxLiteralSize: limits.maxCallBytes + 65_536,
      maxResponseSize: limits.maxCallBytes * 2 + 1_048_576,
      clientInfo: { name: 'toolshed-email' },
    });
    // Without a listener an error event would end the process; the failed command reports it.
    fresh.on('error', () => drop(fresh));
    fresh.on('close', () => drop(fresh));
    try {
      await fresh.connect();
    } catch (error) {
      fresh.close();
      throw error;
    }
    client = fresh;
    return fresh;
  }

  function serialized<Result>(work: () => Promise<Result>): Promise<Result> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  async function attempt<Result>(work: (current: ImapFlow) => Promise<Result>): Promise<Result> {
    let current: ImapFlow | undefined;
    try {
      current = await connected();
      return await work(current);
    } catch (error) {
      if (ToolError.isInstance(error)) throw error;
      // The connection's state is unknown after a failed command: the next call starts afresh.
      if (current !== undefined && (current.usable !== true || (error as ImapFailure).code !== undefined))
        drop(current);
      throw imapToolError(error, where, timeoutMs);
    }
  }

  return {
    withClient: (work) => serialized(() => attempt(work)),
    withMailbox: (mailbox, mode, work, options) =>
      serialized(() =>
        attempt(async (current) => {
          const reuse =
            options?.reopen !== true && opened?.path === mailbox && opened.mode === mode && current.mailbox !== false;
          let state: MailboxObject;
          if (reuse && current.mailbox !== false) state = current.mailbox;
          else {
            opened = undefined;
            try {
              state = await current.mailboxOpen(mailbox, { readOnly: mode === 'examine' });
            } catch (error) {
              if ((error as ImapFailure).mailboxMissing === true) {
                throw new ToolError(`There is no mailbox "${mailbox}"; list_mailboxes shows the names.`);
              }
              throw error;
            }
            opened = { path: mailbox, mode };
          }
          return work(current, state);
        }),
      ),
    async close() {
      const current = client;
      client = undefined;
      opened = undefined;
      if (current === undefined) return;
      await Promise.race([
        current.logout().catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 1000).unref()),
      ]);
      current.close();
    },
  };
}
