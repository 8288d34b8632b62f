import { defineTool, structuredResult, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { MailReadingContext } from './mail-reading-context.ts';
import { mailboxArgument, uidArgument } from './mailbox-arguments.ts';
import { applyChange, confirmChange, describeTarget, findChangeTarget } from './mailbox-change.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

// \Deleted is never set here: deleting has its own tool and its own question.
const systemFlags = new Set(['\\Seen', '\\Flagged', '\\Answered', '\\Draft']);

function flagArgument(): z.ZodString {
  return z
    .string()
    .refine(
      (value) => systemFlags.has(value) || /^\$?[A-Za-z0-9_.-]{1,64}$/.test(value),
      'one of \\Seen, \\Flagged, \\Answered, \\Draft, or a keyword such as $Important',
    );
}

/** flag_message: flags added to and removed from one message, after the user's yes. */
export function createFlagMessageTool(context: MailReadingContext): Tool {
  return defineTool({
    name: 'flag_message',
    title: 'Flag message',
    description:
      'Add or remove flags (\\Seen, \\Flagged, \\Answered, keywords) on one message. The user confirms first.',
    input: () =>
      z.object({
        mailbox: mailboxArgument(),
        uid: uidArgument(),
        add: z.array(flagArgument()).max(10).optional(),
        remove: z.array(flagArgument()).max(10).optional(),
      }),
    output: () => z.object({ flags: z.array(z.string()) }),
    jsonSchemas: toolJsonSchemas.flag_message,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    async run({ mailbox, uid, add = [], remove = [] }, call) {
      if (add.length === 0 && remove.length === 0) throw new ToolError('Give flags to add or to remove.');
      const target = await findChangeTarget(context, mailbox, uid);
      const changes = [
        ...(add.length === 0 ? [] : [`add ${add.join(' ')}`]),
        ...(remove.length === 0 ? [] : [`remove ${remove.join(' ')}`]),
      ];
      await confirmChange(
        call,
        `Change the flags of this message?\n${describeTarget(target)}\nFlags now: ${target.flags.join(' ') || 'none'}\nIt will: ${changes.join('; ')}`,
      );
      const flags = await applyChange(context, target, async (client) => {
        if (add.length > 0) await client.messageFlagsAdd(String(uid), add, { uid: true });
        if (remove.length > 0) await client.messageFlagsRemove(String(uid), remove, { uid: true });
        const after = await client.fetchOne(String(uid), { uid: true, flags: true }, { uid: true });
        return after === false ? [] : [...(after.flags ?? [])].filter((item) => item !== '\\Recent');
      });
      return structuredResult({ flags }, { text: `Flags now: ${flags.join(' ') || 'none'}.` });
    },
  });
}
