import type { Tool } from '@toolshed/mcp-core';
import { createDeleteMessageTool } from './delete-message-tool.ts';
import { createFlagMessageTool } from './flag-message-tool.ts';
import type { MailReadingContext } from './mail-reading-context.ts';
import { createMoveMessageTool } from './move-message-tool.ts';
import { createSaveDraftTool, type DraftAttachments } from './save-draft-tool.ts';

/** The tools that change a mailbox, offered only with --allow-mailbox-changes, each asking the user first. */
export function createMailboxChangeTools(
  context: MailReadingContext,
  sender: { name: string; address: string },
  draftAttachments: DraftAttachments,
): Tool[] {
  return [
    createMoveMessageTool(context),
    createFlagMessageTool(context),
    createDeleteMessageTool(context),
    createSaveDraftTool(context, sender, draftAttachments),
  ];
}
