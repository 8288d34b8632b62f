import { createUntrustedTextFence, untrustedLine } from '@toolshed/guards';
import { defineTool, structuredResult, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { numberedFileName, safeAttachmentFileName } from './attachment-file-name.ts';
import type { MailReadingContext } from './mail-reading-context.ts';
import { mailboxArgument, shortText, uidArgument } from './mailbox-arguments.ts';
import { fetchParsedMessage, type ParsedAttachment } from './parsed-message.ts';
import { createPartialAttachmentFile } from './partial-attachment-file.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

const maxNameAttempts = 100;

function chooseAttachment(attachments: readonly ParsedAttachment[], wanted: number | string): ParsedAttachment {
  const found =
    typeof wanted === 'number'
      ? attachments[wanted - 1]
      : attachments.find((attachment) => attachment.filename === wanted);
  if (found !== undefined) return found;
  const names = attachments.map(
    (attachment, index) => `${index + 1}. ${untrustedLine(attachment.filename ?? '(no name)')}`,
  );
  throw new ToolError(
    attachments.length === 0
      ? 'This message has no attachments.'
      : `No attachment ${typeof wanted === 'number' ? `number ${wanted}` : 'by that name'}; this message has: ${names.join('; ')}`,
  );
}

/**
 * save_attachment: one attachment of one message written into the save
 * directory through the path guard, under a name made safe from the
 * sender's, never over an existing file (a numbered name instead).
 */
export function createSaveAttachmentTool(context: MailReadingContext): Tool {
  const guard = context.saveDirectory;
  const cap = context.limits.maxSavedAttachmentBytes;
  return defineTool({
    name: 'save_attachment',
    title: 'Save attachment',
    description:
      'Save one attachment of a message to the save directory; an existing file is never overwritten. Returns the saved file name.',
    input: () =>
      z.object({
        mailbox: mailboxArgument(),
        uid: uidArgument(),
        attachment: z
          .union([z.number().int().min(1).max(1000), shortText(500)])
          .describe('Number from read_message (from 1) or file name'),
      }),
    output: () => z.object({ saved_as: z.string(), size: z.number().int(), content_type: z.string() }),
    jsonSchemas: toolJsonSchemas.save_attachment,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    // A large message on a slow server may take a while to fetch: the call may go on as a task then.
    task: 'optional',
    async run({ mailbox, uid, attachment: wanted }, call) {
      if (guard === undefined) throw new ToolError('Saving attachments is off: the operator set no --save-dir.');
      // Only the wanted attachment is written, into a hidden file as the message streams by; the rest is counted.
      const partial = await createPartialAttachmentFile(guard, cap);
      let chosen = false;
      const sink = (index: number, filename: string | undefined) => {
        const match = typeof wanted === 'number' ? index === wanted : filename === wanted;
        if (chosen || !match) return undefined;
        chosen = true;
        return partial.sink;
      };
      try {
        const message = await fetchParsedMessage(context, mailbox, uid, { sink });
        if (message === undefined)
          throw new ToolError(`There is no message with uid ${uid} in ${mailbox}; search again.`);
        const attachment = chooseAttachment(message.parsed.attachments, wanted);
        if (message.truncated) {
          throw new ToolError(
            `The message is larger than the ${context.limits.maxCallBytes} bytes a call may fetch, so its attachments cannot be saved whole.`,
          );
        }
        if (attachment.size > cap) {
          throw new ToolError(
            `The attachment has ${attachment.size} bytes; at most ${cap} may be saved (--max-saved-attachment-bytes).`,
          );
        }
        await partial.finish();
        const base = safeAttachmentFileName(attachment.filename, `attachment-${uid}`);
        for (let number = 1; number <= maxNameAttempts; number++) {
          const name = numberedFileName(base, number);
          const target = await guard.resolve(name, { access: 'write', keepLastLink: true });
          if (target.exists) continue;
          // Cancelled while the message was fetched (tasks/cancel, say): a cancelled call reports no file, so none
          // is left.
          call.signal.throwIfAborted();
          try {
            await partial.moveTo(target);
          } catch (error) {
            // Another file took the name between the check and the move: try the next one.
            if (error instanceof Error && /already exists/.test(error.message)) continue;
            throw error;
          }
          const result = {
            saved_as: name,
            size: attachment.size,
            content_type: untrustedLine(attachment.contentType),
          };
          // The name comes from the sender, so it is fenced like the rest of what they wrote.
          const fence = createUntrustedTextFence('mail');
          return structuredResult(result, {
            text: `Saved in the save directory (${result.size} bytes) under the name below. ${fence.notice}\n${fence.wrap(name)}`,
          });
        }
        throw new ToolError(
          `"${base}" and ${maxNameAttempts - 1} numbered variants already exist in the save directory.`,
        );
      } finally {
        await partial.discard();
      }
    },
  });
}
