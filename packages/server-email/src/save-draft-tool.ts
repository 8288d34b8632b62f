import { defineTool, structuredResult, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { parseEmailAddress } from './email-address.ts';
import type { MailReadingContext } from './mail-reading-context.ts';
import { confirmChange } from './mailbox-change.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';
import { findUnsafeCharacter } from './unsafe-characters.ts';

/** save_draft: a plain text message appended to the \Drafts mailbox, after the user's yes; nothing is sent. */
export function createSaveDraftTool(context: MailReadingContext, sender: { name: string; address: string }): Tool {
  return defineTool({
    name: 'save_draft',
    title: 'Save draft',
    description:
      'Save a plain-text draft in the Drafts mailbox for the user to finish; nothing is sent. The user confirms first.',
    input: () =>
      z.object({
        to: z.array(z.string().max(320)).max(20).optional(),
        subject: z.string().max(998),
        text: z.string().max(100_000),
      }),
    output: () => z.object({ mailbox: z.string(), uid: z.number().int().optional() }),
    jsonSchemas: toolJsonSchemas.save_draft,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run({ to = [], subject, text }, call) {
      const problem = findUnsafeCharacter(subject);
      if (problem !== undefined) throw new ToolError(`The subject contains ${problem}; drafts take one plain line.`);
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
      const raw = await new MailComposer({ from: sender, to: recipients, subject, text }).compile().build();
      await confirmChange(
        call,
        `Save this draft in ${drafts}? Nothing will be sent.\nTo: ${recipients.map((item) => item.address).join(', ') || '(none)'}\nSubject: ${subject}\nBody begins: "${text.replace(/\s+/g, ' ').slice(0, 300)}"`,
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
