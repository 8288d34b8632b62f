import { defineTool, structuredResult, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import type { MailReadingContext } from './mail-reading-context.ts';
import { mailboxArgument, uidArgument } from './mailbox-arguments.ts';
import { applyChange, canMoveSafely, confirmChange, describeTarget, findChangeTarget } from './mailbox-change.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

/**
 * delete_message: to the Trash mailbox; a message already in the Trash is
 * removed for good, by a second question of its own and a `UID EXPUNGE` of
 * that UID alone, never a bare `EXPUNGE` that would also take what another
 * client marked deleted.
 */
export function createDeleteMessageTool(context: MailReadingContext): Tool {
  return defineTool({
    name: 'delete_message',
    title: 'Delete message',
    description:
      'Move one message to Trash; called on a message in Trash, delete it for good. The user confirms first.',
    input: () => z.object({ mailbox: mailboxArgument(), uid: uidArgument() }),
    output: () => z.object({ outcome: z.enum(['moved_to_trash', 'deleted_permanently']), trash: z.string() }),
    jsonSchemas: toolJsonSchemas.delete_message,
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    async run({ mailbox, uid }, call) {
      const target = await findChangeTarget(context, mailbox, uid);
      const trash = target.mailboxes.find((entry) => entry.specialUse === '\\Trash')?.path;
      if (trash === undefined) {
        throw new ToolError('This account has no mailbox marked \\Trash; move the message with move_message instead.');
      }
      if (mailbox !== trash) {
        await confirmChange(
          call,
          `Move this message to ${trash}?\n${describeTarget(target)}\nIt can be restored from ${trash}.`,
        );
        const moved = await applyChange(context, target, async (client) => {
          if (!canMoveSafely(client)) {
            throw new ToolError(
              'This server has neither MOVE nor UIDPLUS, so a move could also remove other messages; nothing changed.',
            );
          }
          return client.messageMove(String(uid), trash, { uid: true });
        });
        if (moved === false) throw new ToolError('The server did not move the message; nothing changed.');
        return structuredResult(
          { outcome: 'moved_to_trash', trash },
          {
            text: `Moved to ${trash}. To delete it for good, call delete_message on it there (the user is asked again).`,
          },
        );
      }
      await confirmChange(
        call,
        `Delete this message permanently?\n${describeTarget(target)}\nIt cannot be restored afterwards.`,
      );
      await applyChange(context, target, async (client) => {
        if (!client.capabilities.has('UIDPLUS')) {
          throw new ToolError(
            'This server lacks UIDPLUS, so only a bare EXPUNGE could delete, taking other messages marked deleted too; nothing changed.',
          );
        }
        const deleted = await client.messageDelete(String(uid), { uid: true });
        if (!deleted) throw new ToolError('The server did not delete the message.');
      });
      return structuredResult(
        { outcome: 'deleted_permanently', trash },
        { text: `Deleted permanently from ${trash}.` },
      );
    },
  });
}
