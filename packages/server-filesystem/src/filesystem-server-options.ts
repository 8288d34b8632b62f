import type { PathAccess } from '@toolshed/guards';

/** The caps every call is held to; each has a flag in the bin. */
export interface FilesystemLimits {
  /** Bytes of text a read returns at most; longer files are cut at a line and say how to read on. */
  maxReadBytes: number;
  /** Bytes a media file may have to be returned. */
  maxMediaBytes: number;
  /** Bytes a file may have to be written, edited, or searched for content. */
  maxFileBytes: number;
  /** Entries a directory listing, tree or search returns at most. */
  maxEntries: number;
  /** Levels a tree or search descends at most. */
  maxDepth: number;
  /** Matches search_file_contents returns at most. */
  maxMatches: number;
  /** Milliseconds a regular expression may take on one file. */
  regexTimeoutMs: number;
}

export interface FilesystemServerOptions extends Partial<FilesystemLimits> {
  /**
   * Directories the server may use: `DIR` or `DIR:rw` read-write, `DIR:ro`
   * read-only (or objects). Each must exist. Relative paths are taken from
   * the working directory, `~` from the home directory.
   */
  directories: readonly (string | { path: string; access?: PathAccess })[];
  /** Refuse every write and do not list the write tools. Default: false. */
  readOnly?: boolean;
}

export const defaultFilesystemLimits: FilesystemLimits = {
  maxReadBytes: 1024 * 1024,
  maxMediaBytes: 10 * 1024 * 1024,
  maxFileBytes: 10 * 1024 * 1024,
  maxEntries: 20_000,
  maxDepth: 64,
  maxMatches: 200,
  regexTimeoutMs: 2000,
};
