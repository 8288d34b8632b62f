import { LocalError } from '../errors/local-error.ts';
import type { ContentAnnotations, Role } from '../protocol/mcp-types.ts';

/** Annotations as callers write them: `lastModified` may be a Date. */
export interface ContentAnnotationsInput {
  /** Who the content is for: the model (`assistant`), the person (`user`), or both. */
  audience?: readonly Role[];
  /** 0 (least important) to 1 (required). */
  priority?: number;
  lastModified?: Date | string;
}

/** Options every content helper takes. */
export interface ContentOptions {
  annotations?: ContentAnnotationsInput;
  meta?: Record<string, unknown>;
}

export function toContentAnnotations(input: ContentAnnotationsInput): ContentAnnotations {
  const annotations: ContentAnnotations = {};
  if (input.audience !== undefined) {
    for (const role of input.audience) {
      if (role !== 'user' && role !== 'assistant') {
        throw new LocalError(
          'content_invalid',
          `annotations.audience holds "${String(role)}"; use "user" or "assistant"`,
        );
      }
    }
    annotations.audience = [...input.audience];
  }
  if (input.priority !== undefined) {
    if (!(input.priority >= 0 && input.priority <= 1)) {
      throw new LocalError('content_invalid', `annotations.priority is ${input.priority}; it must be between 0 and 1`);
    }
    annotations.priority = input.priority;
  }
  if (input.lastModified !== undefined) {
    const date = typeof input.lastModified === 'string' ? new Date(input.lastModified) : input.lastModified;
    if (Number.isNaN(date.getTime())) {
      throw new LocalError('content_invalid', 'annotations.lastModified is not a valid date');
    }
    annotations.lastModified = date.toISOString();
  }
  return annotations;
}

/** Copies annotations and `_meta` onto a content object when given. */
export function withContentOptions<T extends object>(
  content: T,
  options: ContentOptions | undefined,
): T & { annotations?: ContentAnnotations; _meta?: Record<string, unknown> } {
  const out: T & { annotations?: ContentAnnotations; _meta?: Record<string, unknown> } = content;
  if (options?.annotations !== undefined) out.annotations = toContentAnnotations(options.annotations);
  if (options?.meta !== undefined) out._meta = options.meta;
  return out;
}
