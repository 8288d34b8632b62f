import type { PathAccess } from '@toolshed/guards';
import * as z from 'zod';

// The value checks of a cap (a whole number of at least 1) stay in resolveLimits, which names the cap in its message.
type LimitSchema = z.ZodOptional<z.ZodNumber>;

// Shapes are spelt out as types because exported schemas need declared types under isolatedDeclarations.
type FilesystemLimitsShape = {
  /** Bytes of text a read returns at most; longer files are cut at a line and say how to read on. */
  maxReadBytes: LimitSchema;
  /** Bytes a media file may have to be returned. */
  maxMediaBytes: LimitSchema;
  /** Bytes a file may have to be written, edited, or searched for content. */
  maxFileBytes: LimitSchema;
  /** Entries a directory listing, tree or search returns at most. */
  maxEntries: LimitSchema;
  /** Levels a tree or search descends at most. */
  maxDepth: LimitSchema;
  /** Matches search_file_contents returns at most. */
  maxMatches: LimitSchema;
  /** Milliseconds a regular expression may take on one file. */
  regexTimeoutMs: LimitSchema;
};

type DirectoryGrantSchema = z.ZodUnion<
  readonly [
    z.ZodString,
    // Exactly optional, as PathGuard.create takes it.
    z.ZodObject<
      { path: z.ZodString; access: z.ZodExactOptional<z.ZodEnum<{ [Access in PathAccess]: Access }>> },
      z.core.$strict
    >,
  ]
>;

type FilesystemServerOptionsShape = FilesystemLimitsShape & {
  /**
   * Directories the server may use: `DIR` or `DIR:rw` read-write, `DIR:ro`
   * read-only (or objects). Each must exist. Relative paths are taken from
   * the working directory, `~` from the home directory.
   */
  directories: z.ZodReadonly<z.ZodArray<DirectoryGrantSchema>>;
  /** Refuse every write and do not list the write tools. Default: false. */
  readOnly: z.ZodOptional<z.ZodBoolean>;
};

const pathAccesses = ['read', 'write'] as const satisfies readonly PathAccess[];

/**
 * Every option `createFilesystemServer` takes. Strict: an unknown key is
 * refused with its path and the closest valid name, so a misspelt cap is
 * never silently left at its default.
 *
 * @example
 * const options = filesystemServerOptions.parse({ directories: ['~/notes'], maxEntries: 5000 });
 */
export const filesystemServerOptions: z.ZodObject<FilesystemServerOptionsShape, z.core.$strict> = z.strictObject({
  directories: z
    .array(z.union([z.string(), z.strictObject({ path: z.string(), access: z.enum(pathAccesses).exactOptional() })]))
    .readonly(),
  readOnly: z.boolean().optional(),
  maxReadBytes: z.number().optional(),
  maxMediaBytes: z.number().optional(),
  maxFileBytes: z.number().optional(),
  maxEntries: z.number().optional(),
  maxDepth: z.number().optional(),
  maxMatches: z.number().optional(),
  regexTimeoutMs: z.number().optional(),
});

export type FilesystemServerOptions = z.input<typeof filesystemServerOptions>;

/** The caps every call is held to; each has a flag in the bin. */
export type FilesystemLimits = { [Key in keyof FilesystemLimitsShape]: number };

export const defaultFilesystemLimits: FilesystemLimits = {
  maxReadBytes: 1024 * 1024,
  maxMediaBytes: 10 * 1024 * 1024,
  maxFileBytes: 10 * 1024 * 1024,
  maxEntries: 20_000,
  maxDepth: 64,
  maxMatches: 200,
  regexTimeoutMs: 2000,
};
