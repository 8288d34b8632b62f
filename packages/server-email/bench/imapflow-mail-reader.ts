/**
 * The anchor of the read bench: imapflow used directly, in the bench's own
 * process, doing the IMAP work the server does for one `search_messages`
 * and its reads — command for command, part for part — and parsing each
 * message with mailparser as the server does, and nothing else: no MCP, no
 * fences, no caps, no snippets decoded. The command counter checks that
 * both sides send the same commands.
 */
import { type FetchQueryObject, ImapFlow } from 'imapflow';
import { type SimpleParserOptions, simpleParser } from 'mailparser';

export interface ImapflowEndpoint {
  port: number;
  /** Implicit TLS with this CA, or plain IMAP (loopback only, for counting commands). */
  ca: string | undefined;
  user: string;
  password: string;
}

export interface ImapflowMailReader {
  /** One search by sender, its hits' envelopes, structures and first text bytes, then each hit read; the messages read with a body. */
  searchAndRead(from: string, limit: number): Promise<number>;
  close(): Promise<void>;
}

// What the server asks for, in the same commands: the first 2 KB of section 1 with the envelopes, and each
// message whole (up to 1 MB) with its flags; mailparser as the server runs it.
/** The FETCH of a search's hits. */
export const hitsQuery: FetchQueryObject = {
  uid: true,
  flags: true,
  envelope: true,
  internalDate: true,
  size: true,
  bodyStructure: true,
  bodyParts: [{ key: '1', start: 0, maxLength: 2048 }],
};
/** The FETCH of one message whole, with its flags. */
export const wholeMessageQuery: FetchQueryObject = {
  uid: true,
  flags: true,
  size: true,
  source: { start: 0, maxLength: 1024 * 1024 },
};
export const parserOptions: SimpleParserOptions = {
  skipHtmlToText: true,
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
};

export async function openImapflowMailReader(endpoint: ImapflowEndpoint): Promise<ImapflowMailReader> {
  const client = new ImapFlow({
    host: '127.0.0.1',
    port: endpoint.port,
    secure: endpoint.ca !== undefined,
    doSTARTTLS: endpoint.ca === undefined ? false : undefined,
    auth: { user: endpoint.user, pass: endpoint.password },
    ...(endpoint.ca === undefined ? {} : { tls: { ca: endpoint.ca } }),
    logger: false,
    disableAutoIdle: true,
  });
  await client.connect();
  await client.mailboxOpen('INBOX', { readOnly: true });
  return {
    async searchAndRead(from, limit) {
      const found = (await client.search({ from }, { uid: true })) || [];
      const chosen = [...found].sort((left, right) => right - left).slice(0, limit);
      for await (const _message of client.fetch(chosen, hitsQuery, { uid: true })) {
        // Consumed, as a program would.
      }
      let read = 0;
      for (const uid of chosen) {
        const message = await client.fetchOne(String(uid), wholeMessageQuery, { uid: true });
        if (message === false || message.source === undefined) throw new Error(`uid ${uid} missing`);
        const parsed = await simpleParser(message.source, parserOptions);
        if ((parsed.text ?? '') !== '') read++;
      }
      return read;
    },
    async close() {
      await client.logout();
    },
  };
}
