import { defineTool, structuredResult, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { MailReadingContext } from './mail-reading-context.ts';
import { mailboxArgument, shortText, uidArgument } from './mailbox-arguments.ts';
import { applyChange, canMoveSafely, confirmChange, describeTarget, findChangeTarget } from './mailbox-change.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

/** move_message: one message to another existing mailbox, after the user's yes. */
export function createMoveMessageTool(context: MailReadingContext): Tool {
  return defineTool({
    name: 'move_message',
    title: 'Move message',
    description: 'Move one message to another mailbox (e.g. Archive). The user confirms first.',
    input: () => z.object({ mailbox: mailboxArgument(), uid: uidArgument(), to_mailbox: shortText(1000) }),
    output: () => z.object({ moved: z.boolean(), to_mailbox: z.string(), new_uid: z.number().int().optional() }),
    jsonSchemas: toolJsonSchemas.move_message,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run({ mailbox, uid, to_mailbox: destination }, call) {
      const target = await findChangeTarget(context, mailbox, uid);
      if (!target.mailboxes.some((entry) => entry.path === destination)) {
        throw new ToolError(`There is no mailbox "${destination}"; list_mailboxes shows the names.`);
      }
      if (destination === mailbox) throw new ToolError(`The message is already in ${mailbox}.`);
      await confirmChange(call, `Move this message?\n${describeTarget(target)}\nIt will be moved to: ${destination}`);
      const moved = await applyChange(context, target, async (client) => {
        if (!canMoveSafely(client)) {
          throw new ToolError(
            'This server has neither MOVE nor UIDPLUS, so a move could also remove other messages; nothing changed.',
          );
        }
        return client.messageMove(String(uid), destination, { uid: true });
      });
      if (moved === false) throw new ToolError(`The server did not move the message; nothing changed.`);
      const newUid = moved.uidMap?.get(uid);
      return structuredResult(
        { moved: true, to_mailbox: destination, ...(newUid === undefined ? {} : { new_uid: newUid }) },
        { text: `Moved to ${destination}${newUid === undefined ? '' : ` (uid ${newUid} there)`}.` },
      );
    },
  });
}
