import { ImapFlow } from 'imapflow';
import type { DovecotServer } from './dovecot-server.ts';

/** imapflow used directly, logged in to the test Dovecot over IMAPS. */
export async function directImapClient(dovecot: DovecotServer): Promise<ImapFlow> {
  const client = new ImapFlow({
    host: dovecot.host,
    port: dovecot.imapsPort,
    secure: true,
    auth: { user: dovecot.user, pass: dovecot.password },
    tls: { ca: dovecot.ca },
    logger: false,
    disableAutoIdle: true,
  });
  await client.connect();
  return client;
}

/** Every message of every mailbox as `mailbox uid flags size`, sorted: what reading must leave as it was. */
export async function mailboxSnapshot(dovecot: DovecotServer): Promise<string[]> {
  const client = await directImapClient(dovecot);
  try {
    const lines: string[] = [];
    for (const mailbox of await client.list()) {
      const opened = await client.mailboxOpen(mailbox.path, { readOnly: true });
      lines.push(`${mailbox.path} uidvalidity ${opened.uidValidity} exists ${opened.exists}`);
      if (opened.exists === 0) continue;
      for await (const message of client.fetch('1:*', { uid: true, flags: true, size: true })) {
        lines.push(
          `${mailbox.path} ${message.uid} [${[...(message.flags ?? [])]
            .filter((flag) => flag !== '\\Recent')
            .sort()
            .join(' ')}] ${message.size}`,
        );
      }
    }
    return lines.sort();
  } finally {
    await client.logout();
  }
}
