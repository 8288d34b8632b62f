import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseOptions } from '@toolshed/mcp-core';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmailServer } from './create-email-server.ts';
import { emailServerOptions } from './email-server-options.ts';

const what = '@toolshed/server-email options';
const defaultLimits = {
  maxRecipients: 20,
  maxMessageBytes: 25_000_000,
  maxAttachments: 10,
  maxAttachmentBytes: 10_485_760,
  sendsPerMinute: 5,
  sendsPerHour: 30,
  smtpTimeoutMs: 30_000,
  maxSearchResults: 50,
  maxBodyCharacters: 20_000,
  maxSavedAttachmentBytes: 25_000_000,
  maxCallBytes: 50_000_000,
  maxMailboxes: 500,
  imapTimeoutMs: 30_000,
};
const directory = mkdtempSync(join(tmpdir(), 'toolshed-email-options-'));

afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('emailServerOptions', () => {
  it('accepts every option', () => {
    const log = (): void => {};
    const options = {
      from: 'Assistant <assistant@example.com>',
      smtp: { host: 'smtp.example.com', port: 587, security: 'starttls', user: 'a', password: 'b', ca: 'PEM' },
      outboxDirectory: join(directory, 'outbox'),
      allowRecipients: ['example.com'],
      allowAnyRecipient: false,
      skipConfirmation: false,
      attachmentsDirectory: directory,
      limits: { maxRecipients: 3, sendsPerHour: 10 },
      logRecipients: 'domain',
      log,
      dnsServers: ['127.0.0.1:53'],
      imap: {
        host: 'imap.example.com',
        port: 993,
        security: 'tls',
        user: 'a',
        password: 'b',
        accessToken: 'c',
        ca: 'PEM',
      },
      saveDirectory: directory,
      allowMailboxChanges: true,
      state: 'postgres://toolshed@db.example.com:5432/toolshed',
    } as const;
    expect(parseOptions(emailServerOptions, options, what)).toEqual({
      ...options,
      limits: { ...defaultLimits, maxRecipients: 3, sendsPerHour: 10 },
    });
  });

  it('fills in every default', () => {
    expect(parseOptions(emailServerOptions, {}, what)).toEqual({
      allowAnyRecipient: false,
      skipConfirmation: false,
      logRecipients: 'hash',
      allowMailboxChanges: false,
      limits: defaultLimits,
    });
  });

  it.each([
    'postgres://toolshed@db.example.com/toolshed',
    'postgresql://toolshed@db.example.com:6432/toolshed?sslmode=verify-full',
    'sqlite:///var/lib/toolshed/state.db',
    './state.db',
  ])('accepts %s as the state store', (state) => {
    expect(parseOptions(emailServerOptions, { state }, what).state).toBe(state);
  });

  it('lets createEmailServer start from valid options', async () => {
    const server = createEmailServer({
      outboxDirectory: join(directory, 'outbox'),
      allowRecipients: ['example.com'],
      limits: { maxAttachments: 2 },
      log: () => {},
    });
    await server.close();
  });

  it.each([
    [
      'a misspelt option',
      { outboxDirectroy: 'x' },
      /unknown option "outboxDirectroy" at outboxDirectroy; did you mean "outboxDirectory"\?/,
    ],
    [
      'a misspelt limit',
      { limits: { maxRecipient: 3 } },
      /unknown option "maxRecipient" at limits\.maxRecipient; did you mean "maxRecipients"\?/,
    ],
    [
      'a misspelt SMTP setting',
      { smtp: { host: 'h', pasword: 'p' } },
      /unknown option "pasword" at smtp\.pasword; did you mean "password"\?/,
    ],
    [
      'a limit of the wrong type',
      { limits: { sendsPerMinute: '5' } },
      /limits\.sendsPerMinute: must be a whole number of at least 1/,
    ],
    [
      'a limit below 1',
      { limits: { maxAttachments: 0 } },
      /limits\.maxAttachments: must be a whole number of at least 1/,
    ],
    ['SMTP settings without a host', { smtp: { user: 'a' } }, /smtp\.host: required with any other SMTP setting/],
    ['a port out of range', { smtp: { host: 'h', port: 70_000 } }, /smtp\.port: must be a port number, 1 to 65535/],
    [
      'an SMTP security that does not exist',
      { smtp: { host: 'h', security: 'ssl' } },
      /smtp\.security: Invalid option/,
    ],
    ['a log that cannot be called', { log: 'stderr' }, /log: Expected a function/],
    ['IMAP settings without a host', { imap: { user: 'a' } }, /imap\.host: required with any other IMAP setting/],
    ['an IMAP host without a user', { imap: { host: 'h', password: 'p' } }, /imap\.user: required with an IMAP host/],
    ['an IMAP security that does not exist', { imap: { host: 'h', user: 'u', security: 'ssl' } }, /imap\.security/],
    ['mailbox changes without IMAP', { allowMailboxChanges: true }, /--allow-mailbox-changes needs an IMAP server/],
    [
      'a state store of another kind',
      { state: 'redis://cache/0' },
      /state: must be a postgres:\/\/ URL or a file path/,
    ],
    [
      'a state URL that does not parse, without repeating it',
      { state: 'postgres://toolshed:hunter2@[db/toolshed' },
      /^(?!.*hunter2).*state: is not a valid URL/,
    ],
    ['an empty state setting', { state: ' ' }, /state: must be a postgres:\/\/ URL or a file path, not empty/],
    [
      'OAuth2 settings without a refresh token',
      { imap: { host: 'h', user: 'u' }, oauth2: { tokenUrl: 'https://id.example/token', clientId: 'c' } },
      /oauth2\.refreshToken: required with any other OAuth2 setting/,
    ],
    [
      'OAuth2 without an IMAP or SMTP server',
      { oauth2: { tokenUrl: 'https://id.example/token', clientId: 'c', refreshToken: 'r' } },
      /OAuth2 settings need an IMAP or SMTP server/,
    ],
    [
      'an OAuth2 token URL in clear text off this machine, without repeating the refresh token',
      {
        imap: { host: 'h', user: 'u' },
        oauth2: { tokenUrl: 'http://id.example/token', clientId: 'c', refreshToken: 'r-secret' },
      },
      /^(?!.*r-secret).*must use https \(http only to 127\.0\.0\.1 or ::1\), not http:\/\/id\.example/,
    ],
    [
      'OAuth2 for SMTP without the SMTP login',
      {
        from: 'a@example.com',
        smtp: { host: 'h' },
        oauth2: { tokenUrl: 'https://id.example/token', clientId: 'c', refreshToken: 'r' },
      },
      /OAuth2 for SMTP needs the login: set --smtp-user/,
    ],
  ])('refuses %s with where it is', (_name, options, message) => {
    expect(() => createEmailServer(options as never)).toThrow(message);
    expect(() => createEmailServer(options as never)).toThrow(expect.objectContaining({ code: 'config_invalid' }));
  });
});
