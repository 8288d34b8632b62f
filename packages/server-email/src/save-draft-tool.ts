import type { PathGuard } from '@toolshed/guards';
import { defineTool, structuredResult, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { type AttachmentLimits, readAttachments } from './attachment-files.ts';
import { parseEmailAddress } from './email-address.ts';
import type { MailReadingContext } from './mail-reading-context.ts';
import { confirmChange } from './mailbox-change.ts';
import { describeBlocked } from './message-draft.ts';
import { parseMessageId } from './message-id.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { findUnsafeCharacter, printable } from './unsafe-characters.ts';

/** What a draft may carry besides its text: attachments from the attachments directory, under the sending caps. */
export interface DraftAttachments {
  guard: PathGuard | undefined;
  limits: AttachmentLimits;
}

function threadingIds(
  inReplyTo: string | undefined,
  references: readonly string[],
): {
  inReplyTo?: string;
  references?: string[];
} {
  const read = (value: string, field: string) => {
    const parsed = parseMessageId(value);
    if (!parsed.ok) throw new ToolError(`${field}: "${printable(value)}" ${parsed.reason}.`);
    return parsed.value;
  };
  return {
    ...(inReplyTo === undefined ? {} : { inReplyTo: read(inReplyTo, 'in_reply_to') }),
    ...(references.length === 0
      ? {}
      : { references: references.map((value, index) => read(value, `references[${index}]`)) }),
  };
}

/**
 * save_draft: a message appended to the \Drafts mailbox, after the user's
 * yes; nothing is sent. Text and/or HTML, attachments read as send_email
 * reads them, and the threading headers of a reply, so the user can finish
 * an answer in their own mail program.
 */
export function createSaveDraftTool(
  context: MailReadingContext,
  sender: { name: string; address: string },
  files: DraftAttachments,
): Tool {
  return defineTool({
    name: 'save_draft',
    title: 'Save draft',
    description: 'Save a draft in the Drafts mailbox for the user to finish; nothing is sent. The user confirms first.',
    input: () =>
      z.object({
        to: z.array(z.string().max(320)).max(20).optional(),
        subject: z.string().max(998),
        text: z.string().max(100_000).optional(),
        html: z.string().max(1_000_000).optional(),
        attachments: z.array(z.string()).max(100).optional().describe('File names in the attachments directory'),
        in_reply_to: z.string().optional(),
        references: z.array(z.string()).max(100).optional(),
      }),
    output: () => z.object({ mailbox: z.string(), uid: z.number().int().optional() }),
    jsonSchemas: toolJsonSchemas.save_draft,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run({ to = [], subject, text, html, attachments = [], in_reply_to: inReplyTo, references = [] }, call) {
      const problem = findUnsafeCharacter(subject);
      if (problem !== undefined) throw new ToolError(`The subject contains ${problem}; drafts take one plain line.`);
      if ((text ?? '') === '' && (html ?? '') === '')
        throw new ToolError('There is no body: give text, html, or both.');
      const threading = threadingIds(inReplyTo, references);
      const read = await readAttachments(attachments, files.guard, files.limits, call.signal);
      if (read.blocked.length > 0) throw new ToolError(`No draft saved. Fix these:\n${describeBlocked(read.blocked)}`);
      const recipients = to.map((item) => {
        const parsed = parseEmailAddress(item);
        if (!parsed.ok) throw new ToolError(`"${item}" ${parsed.reason}`);
        return { name: parsed.value.name ?? '', address: parsed.value.address };
      });
      const drafts = await context.connection.withClient(
        async (client) => (await client.list()).find((entry) => entry.specialUse === '\\Drafts')?.path,
      );
      if (drafts === undefined) throw new ToolError('This account has no mailbox marked \\Drafts.');
      // Loaded on the first draft, so that nodemailer is not on the start-up path.
      const { default: MailComposer } = await import('nodemailer/lib/mail-composer');
      const raw = await new MailComposer({
        from: sender,
        to: recipients,
        subject,
        ...(text === undefined ? {} : { text }),
        ...(html === undefined ? {} : { html }),
        ...threading,
        attachments: read.files.map((file) => ({ filename: file.filename, content: file.content })),
        disableFileAccess: true,
        disableUrlAccess: true,
      })
        .compile()
        .build();
      const body = (text ?? html?.replace(/<[^>]*>/g, ' ') ?? '').replace(/\s+/g, ' ').trim();
      const attached = read.files.map((file) => `${file.filename} (${file.content.length} bytes)`).join(', ');
      await confirmChange(
        call,
        `Save this draft in ${drafts}? Nothing will be sent.\nTo: ${recipients.map((item) => item.address).join(', ') || '(none)'}\nSubject: ${subject}\nAttachments: ${attached || 'none'}\nBody begins: "${body.slice(0, 300)}"`,
      );
      const appended = await context.connection.withClient((client) =>
        client.append(drafts, raw, ['\\Draft', '\\Seen']),
      );
      if (appended === false) throw new ToolError('The server did not take the draft.');
      return structuredResult(
        { mailbox: drafts, ...(appended.uid === undefined ? {} : { uid: appended.uid }) },
        { text: `Saved in ${drafts}.` },
      );
    },
  });
}
