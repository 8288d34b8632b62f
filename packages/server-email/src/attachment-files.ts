import { basename } from 'node:path';
import type { PathGuard } from '@toolshed/guards';
import { ToolError } from '@toolshed/mcp-core';
import type { BlockingCheck } from './message-draft.ts';

export interface AttachmentFile {
  /** The name the recipient sees: the file's own name, no folders. */
  filename: string;
  content: Buffer;
}

export interface AttachmentLimits {
  maxAttachments: number;
  maxAttachmentBytes: number;
  maxMessageBytes: number;
}

/**
 * Reads the named attachments through the path guard: only files inside the
 * attachments directory, links that lead out refused, the opened file
 * verified, the size checked on the open descriptor before a byte is read.
 */
export async function readAttachments(
  names: readonly string[],
  guard: PathGuard | undefined,
  limits: AttachmentLimits,
  signal: AbortSignal,
): Promise<{ files: AttachmentFile[]; blocked: BlockingCheck[] }> {
  const blocked: BlockingCheck[] = [];
  if (names.length === 0) return { files: [], blocked };
  if (guard === undefined) {
    return {
      files: [],
      blocked: [
        {
          check: 'attachment',
          field: 'attachments',
          reason:
            'Attachments are off: the operator has configured no attachments directory. Send without attachments, or put the content in the body',
        },
      ],
    };
  }
  if (names.length > limits.maxAttachments) {
    blocked.push({
      check: 'attachment_count',
      field: 'attachments',
      reason: `${names.length} attachments; at most ${limits.maxAttachments} a message`,
    });
    return { files: [], blocked };
  }
  const files: AttachmentFile[] = [];
  let total = 0;
  for (const [index, name] of names.entries()) {
    signal.throwIfAborted();
    const field = `attachments[${index}]`;
    try {
      const handle = await guard.openFile(await guard.resolve(name));
      try {
        const { size } = await handle.stat();
        if (size > limits.maxAttachmentBytes) {
          blocked.push({
            check: 'attachment_size',
            field,
            reason: `"${name}" is ${size} bytes; each attachment may have at most ${limits.maxAttachmentBytes}`,
          });
          continue;
        }
        total += size;
        if (total > limits.maxMessageBytes) {
          blocked.push({
            check: 'message_size',
            field,
            reason: `The attachments come to more than the ${limits.maxMessageBytes} bytes a message may have`,
          });
          break;
        }
        // Read no more than was measured: a file growing meanwhile cannot pass the cap.
        const content = Buffer.alloc(size);
        const { bytesRead } = await handle.read(content, 0, size, 0);
        files.push({ filename: basename(name), content: content.subarray(0, bytesRead) });
      } finally {
        await handle.close();
      }
    } catch (error) {
      if (!ToolError.isInstance(error)) throw error;
      blocked.push({ check: 'attachment', field, reason: error.message.replace(/\.$/, '') });
    }
  }
  return { files, blocked };
}
