import { untrustedLine } from '@toolshed/guards';
import { type CallContext, ToolError } from '@toolshed/mcp-core';
import type { ImapFlow, MailboxObject } from 'imapflow';
import { addressListText } from './mail-address-text.ts';
import type { MailReadingContext } from './mail-reading-context.ts';

/** The message a change is about, as the user will be shown it. */
export interface ChangeTarget {
  mailbox: string;
  uid: number;
  uidValidity: bigint;
  from: string;
  subject: string;
  flags: string[];
  /** Every selectable mailbox, with its special use. */
  mailboxes: { path: string; specialUse: string | undefined }[];
}

function checkUidValidity(context: MailReadingContext, mailbox: string, opened: MailboxObject): bigint {
  const known = context.uidValidities.get(mailbox);
  if (known === undefined) {
    throw new ToolError(`Search or read ${mailbox} first: a UID is only trusted from this server's own results.`);
  }
  if (known !== opened.uidValidity) {
    context.uidValidities.delete(mailbox);
    throw new ToolError(
      `The UIDs of ${mailbox} were renumbered by the server (UIDVALIDITY changed): search again for the message.`,
    );
  }
  return known;
}

/**
 * Looks the message up without changing anything (the mailbox opened with
 * EXAMINE), so that the question shows what the change is about. Pure, as
 * everything before a question must be: in the 2026 era the handler runs
 * again from the top once the answer comes.
 */
export async function findChangeTarget(
  context: MailReadingContext,
  mailbox: string,
  uid: number,
): Promise<ChangeTarget> {
  return context.connection.withMailbox(
    mailbox,
    'examine',
    async (client, opened) => {
      const uidValidity = checkUidValidity(context, mailbox, opened);
      const message = await client.fetchOne(String(uid), { uid: true, envelope: true, flags: true }, { uid: true });
      if (message === false || message.uid !== uid) {
        throw new ToolError(`There is no message with uid ${uid} in ${mailbox}; search again.`);
      }
      const listed = await client.list();
      return {
        mailbox,
        uid,
        uidValidity,
        from: addressListText(message.envelope?.from).map(untrustedLine).join(', ') || '(no sender)',
        subject: untrustedLine(message.envelope?.subject ?? '') || '(no subject)',
        flags: [...(message.flags ?? [])].filter((flag) => flag !== '\\Recent'),
        mailboxes: listed
          .filter((entry) => ![...entry.flags].some((flag) => /^\\(noselect|nonexistent)$/i.test(flag)))
          .map((entry) => ({ path: entry.path, specialUse: entry.specialUse })),
      };
    },
    { reopen: true },
  );
}

/** The question's first lines: which message, by what the user knows it by. */
export function describeTarget(target: ChangeTarget): string {
  return `Mailbox: ${target.mailbox}\nFrom: ${target.from}\nSubject: "${target.subject}"`;
}

/**
 * Asks the user; anything but an explicit yes is a refusal that changes
 * nothing, and a client that cannot ask gets a message that says so.
 */
export async function confirmChange(call: CallContext, question: string): Promise<void> {
  const answer = await call.confirm(question);
  if (answer.confirmed) return;
  if (answer.action === 'unavailable') {
    throw new ToolError(
      'Nothing changed: every mailbox change needs the user to confirm it, and this client cannot ask its user (no elicitation). Tell the user what you meant to do.',
    );
  }
  throw new ToolError(
    answer.action === 'cancel'
      ? 'Nothing changed: the user dismissed the question. Do not try again unless the user asks.'
      : 'Nothing changed: the user said no. Do not try again unless the user asks.',
  );
}

/**
 * Runs a change with the mailbox opened read-write, once the user said yes,
 * after checking again that its UIDs still mean what they meant when asked.
 */
export function applyChange<Result>(
  context: MailReadingContext,
  target: ChangeTarget,
  change: (client: ImapFlow) => Promise<Result>,
): Promise<Result> {
  return context.connection.withMailbox(
    target.mailbox,
    'select',
    async (client, opened) => {
      if (opened.uidValidity !== target.uidValidity) {
        throw new ToolError(`The UIDs of ${target.mailbox} were renumbered meanwhile; nothing changed. Search again.`);
      }
      return change(client);
    },
    { reopen: true },
  );
}

/** Whether a move removes the message from the source by UID alone: MOVE, or UIDPLUS for COPY and UID EXPUNGE. */
export function canMoveSafely(client: ImapFlow): boolean {
  return client.capabilities.has('MOVE') || client.capabilities.has('UIDPLUS');
}
