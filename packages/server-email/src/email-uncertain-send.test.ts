import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { type DroppingSmtpListener, startDroppingSmtpListener } from './__fixtures__/dropping-smtp-listener.ts';
import { startEachTest, textOf } from './__fixtures__/email-harness.ts';

const start = startEachTest();
let listener: DroppingSmtpListener | undefined;

afterEach(async () => {
  await listener?.close();
  listener = undefined;
});

async function startDropping(imap = false) {
  listener = await startDroppingSmtpListener();
  const port = listener.port;
  return start({
    smtp: false,
    server: (directory) => ({
      smtp: { host: '127.0.0.1', port, security: 'none' },
      outboxDirectory: join(directory, 'outbox'),
      ...(imap ? { imap: { host: '127.0.0.1', port: 9, user: 'reader@example.com', password: 'x' } } : {}),
    }),
  });
}

const message = { to: 'bob@example.com', subject: 'Quarterly figures', text: 'Attached are the figures.' };

it('a connection dropped after DATA is uncertain: says it may have been sent, keeps it in the outbox, and sends it again only under a new key', async () => {
  const harness = await startDropping();
  const first = await harness.call('send_email', { ...message, idempotency_key: 'figures-q3-0001' });
  expect(first.isError).toBe(true);
  const text = textOf(first);
  expect(text).toMatch(/Outcome unknown: .*ended after the message was handed over.*it may have been sent/);
  const messageId = /Message-ID (<[^>]+>)/.exec(text)?.[1] ?? '';
  expect(text).toMatch(/Sent folder of the account/);
  expect(listener?.received).toHaveLength(1);
  expect(harness.log.map((entry) => entry.event)).toEqual(['uncertain']);
  const kept = readdirSync(join(harness.directory, 'outbox'));
  expect(kept).toHaveLength(1);
  expect(text).toContain(`A copy is in the outbox as ${kept[0]}`);
  expect(readFileSync(join(harness.directory, 'outbox', kept[0] ?? ''), 'utf8')).toContain(`Message-ID: ${messageId}`);

  const sameKey = await harness.call('send_email', { ...message, idempotency_key: 'figures-q3-0001' });
  expect(sameKey.isError).toBe(true);
  expect(textOf(sameKey)).toMatch(/Outcome unknown/);
  const noKey = await harness.call('send_email', message);
  expect(noKey.isError).toBe(true);
  expect(textOf(noKey)).toMatch(/may have been sent.*new idempotency_key/);
  expect(listener?.received).toHaveLength(1);

  if (listener !== undefined) listener.dropAfterData = false;
  const newKey = await harness.call('send_email', { ...message, idempotency_key: 'figures-q3-0002' });
  expect(newKey.isError).toBeFalsy();
  expect(listener?.received).toHaveLength(2);
  expect(harness.asked).toHaveLength(2);
});

it('a drop after DATA without a key is uncertain too, and the same message is not sent again', async () => {
  const harness = await startDropping();
  const first = await harness.call('send_email', message);
  expect(textOf(first)).toMatch(/Outcome unknown/);
  const again = await harness.call('send_email', message);
  expect(again.isError).toBe(true);
  expect(listener?.received).toHaveLength(1);
  const other = await harness.call('send_email', { ...message, subject: 'Something else' });
  expect(textOf(other)).toMatch(/Outcome unknown/);
  expect(listener?.received).toHaveLength(2);
});

it('with IMAP configured, says how to check the Sent mailbox by Message-ID', async () => {
  const harness = await startDropping(true);
  const first = await harness.call('send_email', message);
  const text = textOf(first);
  const messageId = /Message-ID (<[^>]+>)/.exec(text)?.[1] ?? '';
  expect(text).toContain(`search_messages in the Sent mailbox`);
  expect(text).toContain(`with text "${messageId}"`);
});

it('a connection dropped before DATA surely sent nothing, and a retry may send', async () => {
  const harness = await start({
    smtp: false,
    server: () => ({ smtp: { host: '127.0.0.1', port: 1, security: 'none' } }),
  });
  const refused = await harness.call('send_email', message);
  expect(refused.isError).toBe(true);
  expect(textOf(refused)).toMatch(/Nothing was sent/);
  expect(harness.log.map((entry) => entry.event)).toEqual(['failed']);
});
