import { optionsTableProblems } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { emailCli } from './email-cli.ts';

it('documents every option in the README, as the schema has it', () => {
  expect(optionsTableProblems(emailCli, new URL('../README.md', import.meta.url))).toEqual([]);
});

it('keeps every flag and environment variable name, the password off the command line', () => {
  expect(emailCli.fields.map((field) => [field.flag, field.env])).toEqual([
    ['from', 'TOOLSHED_EMAIL_FROM'],
    ['smtp-host', 'TOOLSHED_EMAIL_SMTP_HOST'],
    ['smtp-port', 'TOOLSHED_EMAIL_SMTP_PORT'],
    ['smtp-security', 'TOOLSHED_EMAIL_SMTP_SECURITY'],
    ['smtp-user', 'TOOLSHED_EMAIL_SMTP_USER'],
    [undefined, 'TOOLSHED_EMAIL_SMTP_PASSWORD'],
    ['smtp-ca', 'TOOLSHED_EMAIL_SMTP_CA'],
    ['outbox', 'TOOLSHED_EMAIL_OUTBOX'],
    ['allow-recipients', 'TOOLSHED_EMAIL_ALLOW_RECIPIENTS'],
    ['allow-any-recipient', 'TOOLSHED_EMAIL_ALLOW_ANY_RECIPIENT'],
    ['skip-confirmation', 'TOOLSHED_EMAIL_SKIP_CONFIRMATION'],
    ['attachments', 'TOOLSHED_EMAIL_ATTACHMENTS'],
    ['log-recipients', 'TOOLSHED_EMAIL_LOG_RECIPIENTS'],
    [undefined, undefined],
    ['dns-servers', 'TOOLSHED_EMAIL_DNS_SERVERS'],
    ['imap-host', 'TOOLSHED_EMAIL_IMAP_HOST'],
    ['imap-port', 'TOOLSHED_EMAIL_IMAP_PORT'],
    ['imap-security', 'TOOLSHED_EMAIL_IMAP_SECURITY'],
    ['imap-user', 'TOOLSHED_EMAIL_IMAP_USER'],
    [undefined, 'TOOLSHED_EMAIL_IMAP_PASSWORD'],
    [undefined, 'TOOLSHED_EMAIL_IMAP_ACCESS_TOKEN'],
    ['imap-ca', 'TOOLSHED_EMAIL_IMAP_CA'],
    ['oauth2-token-url', 'TOOLSHED_EMAIL_OAUTH2_TOKEN_URL'],
    ['oauth2-client-id', 'TOOLSHED_EMAIL_OAUTH2_CLIENT_ID'],
    [undefined, 'TOOLSHED_EMAIL_OAUTH2_CLIENT_SECRET'],
    [undefined, 'TOOLSHED_EMAIL_OAUTH2_REFRESH_TOKEN'],
    ['save-dir', 'TOOLSHED_EMAIL_SAVE_DIR'],
    ['allow-mailbox-changes', 'TOOLSHED_EMAIL_ALLOW_MAILBOX_CHANGES'],
    ['state', 'TOOLSHED_EMAIL_STATE'],
    ['max-recipients', 'TOOLSHED_EMAIL_MAX_RECIPIENTS'],
    ['max-message-bytes', 'TOOLSHED_EMAIL_MAX_MESSAGE_BYTES'],
    ['max-attachments', 'TOOLSHED_EMAIL_MAX_ATTACHMENTS'],
    ['max-attachment-bytes', 'TOOLSHED_EMAIL_MAX_ATTACHMENT_BYTES'],
    ['sends-per-minute', 'TOOLSHED_EMAIL_SENDS_PER_MINUTE'],
    ['sends-per-hour', 'TOOLSHED_EMAIL_SENDS_PER_HOUR'],
    ['smtp-timeout-ms', 'TOOLSHED_EMAIL_SMTP_TIMEOUT_MS'],
    ['max-search-results', 'TOOLSHED_EMAIL_MAX_SEARCH_RESULTS'],
    ['max-body-characters', 'TOOLSHED_EMAIL_MAX_BODY_CHARACTERS'],
    ['max-saved-attachment-bytes', 'TOOLSHED_EMAIL_MAX_SAVED_ATTACHMENT_BYTES'],
    ['max-call-bytes', 'TOOLSHED_EMAIL_MAX_CALL_BYTES'],
    ['max-mailboxes', 'TOOLSHED_EMAIL_MAX_MAILBOXES'],
    ['imap-timeout-ms', 'TOOLSHED_EMAIL_IMAP_TIMEOUT_MS'],
  ]);
});
