import { untrustedLine } from '@toolshed/guards';
import { defineTool, structuredResult, type Tool } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { MailReadingContext } from './mail-reading-context.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

function mailboxOutput() {
  return z.object({
    name: z.string(),
    special_use: z.string().optional().describe('\\Sent, \\Trash, \\Drafts, \\Archive, \\Junk, \\All, \\Flagged'),
    messages: z.number().int().optional(),
    unseen: z.number().int().optional(),
  });
}

/** list_mailboxes: every mailbox with its special use and counts, from one LIST-STATUS (or LIST and STATUS). */
export function createListMailboxesTool(context: MailReadingContext): Tool {
  return defineTool({
    name: 'list_mailboxes',
    title: 'List mailboxes',
    description: 'List mailboxes (folders): special use (\\Sent, \\Trash …) and message counts.',
    input: () => z.object({}),
    output: () => z.object({ mailboxes: z.array(mailboxOutput()), truncated: z.boolean(), total: z.number().int() }),
    jsonSchemas: toolJsonSchemas.list_mailboxes,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run() {
      const listed = await context.connection.withClient((client) =>
        client.list({ statusQuery: { messages: true, unseen: true } }),
      );
      const cap = context.limits.maxMailboxes;
      const mailboxes = listed
        .filter((entry) => ![...entry.flags].some((flag) => /^\\(noselect|nonexistent)$/i.test(flag)))
        .map((entry) => ({
          name: entry.path,
          ...(entry.specialUse === undefined ? {} : { special_use: entry.specialUse }),
          ...(entry.status?.messages === undefined ? {} : { messages: entry.status.messages }),
          ...(entry.status?.unseen === undefined ? {} : { unseen: entry.status.unseen }),
        }));
      const shown = mailboxes.slice(0, cap);
      const lines = shown.map(
        (mailbox) =>
          `${untrustedLine(mailbox.name)}${mailbox.special_use === undefined ? '' : ` (${mailbox.special_use})`}: ${mailbox.messages ?? '?'} messages, ${mailbox.unseen ?? '?'} unseen`,
      );
      if (shown.length < mailboxes.length) {
        lines.push(`… ${mailboxes.length - shown.length} more not shown (cap of ${cap} mailboxes, --max-mailboxes).`);
      }
      return structuredResult(
        { mailboxes: shown, truncated: shown.length < mailboxes.length, total: mailboxes.length },
        { text: lines.join('\n') },
      );
    },
  });
}
