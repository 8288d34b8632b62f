import { ToolError } from '@toolshed/mcp-core';
import type { ImapFlow } from 'imapflow';
import { parseMessageId } from './message-id.ts';

// A conversation longer than this is cut to its newest messages; a search returns fewer still.
const maxThreadMessages = 1000;
// The Message-IDs a conversation is looked up by without THREAD: the message's own and its newest references.
const maxLookupIds = 20;

/** One untagged response's attributes as imapflow's parser gives them: atoms and nested lists. */
type ThreadAttribute = { type?: string; value?: unknown } | ThreadAttribute[];

/** The low-level command runner imapflow uses for its own commands; not in its public types. */
interface CommandRunner {
  exec(
    command: string,
    attributes: { type: string; value: string }[],
    options: { untagged: Record<string, (untagged: { attributes?: ThreadAttribute[] }) => Promise<void>> },
  ): Promise<{ next: () => void }>;
}

function uidsIn(attribute: ThreadAttribute, into: number[]): number[] {
  if (Array.isArray(attribute)) {
    for (const child of attribute) uidsIn(child, into);
  } else if (typeof attribute.value === 'string' && /^\d+$/.test(attribute.value)) {
    into.push(Number(attribute.value));
  }
  return into;
}

/**
 * RFC 5256 `UID THREAD REFERENCES UTF-8 ALL`: the server's own threading by
 * Message-ID, In-Reply-To and References (and subject, for messages missing
 * them), one list of UIDs per conversation; the one holding `uid` is kept.
 */
async function threadByServer(client: ImapFlow, uid: number): Promise<number[] | undefined> {
  let found: number[] | undefined;
  const response = await (client as unknown as CommandRunner).exec(
    'UID THREAD',
    [
      { type: 'ATOM', value: 'REFERENCES' },
      { type: 'ATOM', value: 'UTF-8' },
      { type: 'ATOM', value: 'ALL' },
    ],
    {
      untagged: {
        THREAD: async (untagged) => {
          for (const conversation of untagged.attributes ?? []) {
            const uids = uidsIn(conversation, []);
            if (uids.includes(uid)) found = uids;
          }
        },
      },
    },
  );
  response.next();
  return found;
}

/**
 * Without THREAD: the messages whose Message-ID is one the message refers to,
 * or whose References or In-Reply-To name the message or one it refers to —
 * the conversation as far as one round of header searches reaches.
 */
async function threadByHeaders(client: ImapFlow, uid: number): Promise<number[]> {
  const message = await client.fetchOne(
    String(uid),
    { uid: true, envelope: true, headers: ['references'] },
    { uid: true },
  );
  if (message === false) return [];
  const referenced = (message.headers?.toString('latin1') ?? '').match(/<[^<>\s]+>/g) ?? [];
  const ids = [...referenced, message.envelope?.messageId ?? '']
    .flatMap((value) => {
      const parsed = parseMessageId(value);
      return parsed.ok ? [parsed.value] : [];
    })
    .slice(-maxLookupIds);
  if (ids.length === 0) return [uid];
  const found = await client.search(
    {
      or: ids.flatMap((id) => [
        { header: { 'message-id': id } },
        { header: { references: id } },
        { header: { 'in-reply-to': id } },
      ]),
    },
    { uid: true },
  );
  return [...new Set([uid, ...(found || [])])];
}

/**
 * The UIDs of the conversation `uid` belongs to, in the open mailbox, newest
 * last: the server's THREAD=REFERENCES where it has it, headers otherwise.
 */
export async function threadUids(client: ImapFlow, uid: number): Promise<number[]> {
  const exists = await client.search({ uid: String(uid) }, { uid: true });
  if (!exists || exists.length === 0) throw new ToolError(`There is no message with uid ${uid}; search again.`);
  // A server that announces THREAD and then refuses it (NO, BAD) is asked by headers instead.
  const byServer = client.capabilities.has('THREAD=REFERENCES')
    ? await threadByServer(client, uid).catch((error: { responseStatus?: string }) => {
        if (error.responseStatus === 'NO' || error.responseStatus === 'BAD') return undefined;
        throw error;
      })
    : undefined;
  const uids = byServer ?? (await threadByHeaders(client, uid));
  return uids.sort((left, right) => left - right).slice(-maxThreadMessages);
}
