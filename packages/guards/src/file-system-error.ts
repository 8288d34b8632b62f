import { ToolError } from '@toolshed/mcp-core';

const explanations: Record<string, string> = {
  ENOENT: 'does not exist',
  ENOTDIR: 'has a part that is not a directory',
  EISDIR: 'is a directory, not a file',
  EEXIST: 'already exists',
  ENOTEMPTY: 'is a directory that is not empty',
  EACCES: 'cannot be accessed: permission denied',
  EPERM: 'cannot be changed: operation not permitted',
  ELOOP: 'has too many levels of symbolic links',
  ENAMETOOLONG: 'is too long a name',
  EXDEV: 'is on another file system; moving across file systems is not supported',
  ENOSPC: 'cannot be written: no space left on the device',
  EROFS: 'is on a read-only file system',
  EBUSY: 'is busy',
  EMFILE: 'cannot be opened now: too many open files, try again',
};

/**
 * A file system failure as a message the model can act on, naming the path
 * as the caller wrote it — never the real path, which may reveal the allowed
 * directories. Errors that are not file system errors are passed through.
 */
export function fileSystemToolError(error: unknown, requested: string): unknown {
  if (ToolError.isInstance(error)) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return error;
  const explanation = explanations[code] ?? `cannot be used (${code})`;
  return new ToolError(`"${requested}" ${explanation}.`, { cause: error });
}

/** The error's system code (`ENOENT`, `ELOOP` …), if it has one. */
export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
