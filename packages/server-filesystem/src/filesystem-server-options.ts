import type { PathAccess } from '@toolshed/guards';
import { limitOption } from '@toolshed/mcp-core';
import * as z from 'zod';

type Limit = z.ZodDefault<z.ZodNumber>;

// Shapes are spelt out as types because exported schemas need declared types under isolatedDeclarations.
type FilesystemLimitsShape = {
  maxReadBytes: Limit;
  maxMediaBytes: Limit;
  maxFileBytes: Limit;
  maxCopyBytes: Limit;
  maxEntries: Limit;
  maxDepth: Limit;
  maxMatches: Limit;
  regexTimeoutMs: Limit;
  maxDocumentBytes: Limit;
  maxDocumentPages: Limit;
  documentTimeoutMs: Limit;
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

type FilesystemServerOptionsShape = {
  directories: z.ZodReadonly<z.ZodArray<DirectoryGrantSchema>>;
  readOnly: z.ZodDefault<z.ZodBoolean>;
  limits: z.ZodPrefault<z.ZodObject<FilesystemLimitsShape, z.core.$strict>>;
};

const pathAccesses = ['read', 'write'] as const satisfies readonly PathAccess[];

/**
 * Every option `createFilesystemServer` takes. Strict: an unknown key is
 * refused with its path and the closest valid name, so a misspelt cap is
 * never silently left at its default. The bin's flags, their environment
 * twins, --help and the README's options table come from it.
 *
 * @example
 * const options = filesystemServerOptions.parse({ directories: ['~/notes'], limits: { maxEntries: 5000 } });
 */
export const filesystemServerOptions: z.ZodObject<FilesystemServerOptionsShape, z.core.$strict> = z.strictObject({
  directories: z
    .array(z.union([z.string(), z.strictObject({ path: z.string(), access: z.enum(pathAccesses).exactOptional() })]))
    .readonly()
    .meta({
      description:
        'Directories the server may use: `DIR` or `DIR:rw` read-write, `DIR:ro` read-only; each must exist (`~` is the home directory)',
      flag: 'dir',
      env: 'TOOLSHED_FILESYSTEM_DIRS',
      placeholder: 'DIR[:ro|:rw]',
    }),
  readOnly: z.boolean().default(false).meta({ description: 'Refuse every write and do not list the write tools' }),
  limits: z
    .strictObject({
      maxReadBytes: limitOption(
        1024 * 1024,
        'Bytes of text one read returns at most (longer reads are cut at a line and say how to go on)',
      ),
      maxMediaBytes: limitOption(10 * 1024 * 1024, 'Bytes a file may have for read_media_file'),
      maxFileBytes: limitOption(
        10 * 1024 * 1024,
        'Bytes a file may have to be written, edited or searched for content',
      ),
      maxCopyBytes: limitOption(1024 * 1024 * 1024, 'Bytes one copy_file may copy at most, a file or a whole tree'),
      maxEntries: limitOption(
        20_000,
        'Entries a listing, tree or file search returns at most, and a copied or deleted tree may have',
      ),
      maxDepth: limitOption(64, 'Levels a tree, search, copy or delete descends at most'),
      maxMatches: limitOption(200, 'Matches search_file_contents returns at most'),
      regexTimeoutMs: limitOption(
        2000,
        'Milliseconds a regular expression may run on one file before the search stops',
      ),
      maxDocumentBytes: limitOption(64 * 1024 * 1024, 'Bytes a PDF, DOCX or XLSX file may have for read_document'),
      maxDocumentPages: limitOption(100, 'Pages, sheets or parts one read_document call returns at most'),
      documentTimeoutMs: limitOption(
        30_000,
        'Milliseconds read_document may spend extracting one document before it is stopped',
      ),
    })
    .prefault({})
    .meta({ flagPrefix: '', description: 'The caps every call is held to' }),
});

export type FilesystemServerOptions = z.input<typeof filesystemServerOptions>;

/** The caps every call is held to, with every default filled in. */
export type FilesystemLimits = z.output<typeof filesystemServerOptions>['limits'];
