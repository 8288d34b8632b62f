import type { PathAccess } from '@toolshed/guards';
import { limitOption } from '@toolshed/mcp-core';
import * as z from 'zod';

type Limit = z.ZodDefault<z.ZodNumber>;

// Shapes are spelt out as types because exported schemas need declared types under isolatedDeclarations.
type ImageLimitsShape = {
  maxInputBytes: Limit;
  maxInputPixels: Limit;
  maxFrames: Limit;
  maxOutputEdge: Limit;
  previewMaxEdge: Limit;
  previewMaxBytes: Limit;
  timeoutMs: Limit;
  maxConcurrent: Limit;
  maxQueued: Limit;
  urlTimeoutMs: Limit;
  maxRedirects: Limit;
  ocrMaxPixels: Limit;
  ocrTimeoutMs: Limit;
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

type ImageServerOptionsShape = {
  directories: z.ZodOptional<z.ZodReadonly<z.ZodArray<DirectoryGrantSchema>>>;
  outputDirectory: z.ZodOptional<z.ZodString>;
  allowUrls: z.ZodDefault<z.ZodBoolean>;
  trustedHosts: z.ZodOptional<z.ZodReadonly<z.ZodArray<z.ZodString>>>;
  dnsServers: z.ZodOptional<z.ZodReadonly<z.ZodArray<z.ZodString>>>;
  ocrLanguagesDirectory: z.ZodOptional<z.ZodString>;
  limits: z.ZodPrefault<z.ZodObject<ImageLimitsShape, z.core.$strict>>;
};

const pathAccesses = ['read', 'write'] as const satisfies readonly PathAccess[];

/**
 * Every option `createImageServer` takes. Strict, nested objects too: an
 * unknown key is refused with its path and the closest valid name, so a
 * misspelt cap is never silently left at its default. The bin's flags, their
 * environment twins, --help and the README's options table come from it.
 *
 * @example
 * const options = imageServerOptions.parse({ directories: ['~/Pictures'], limits: { maxFrames: 50 } });
 */
export const imageServerOptions: z.ZodObject<ImageServerOptionsShape, z.core.$strict> = z.strictObject({
  directories: z
    .array(z.union([z.string(), z.strictObject({ path: z.string(), access: z.enum(pathAccesses).exactOptional() })]))
    .readonly()
    .optional()
    .meta({
      description:
        'Directories images may be read from, never written; each must exist. Without any, only data (and allowed url) inputs work',
      flag: 'dir',
      env: 'TOOLSHED_IMAGE_DIRS',
      placeholder: 'DIR',
    }),
  outputDirectory: z.string().optional().meta({
    description:
      'Where full-size results are written (atomically, never replacing a file) and linked from results; it must exist',
    flag: 'output-dir',
    placeholder: 'DIR',
  }),
  allowUrls: z.boolean().default(false).meta({
    description: 'Accept url inputs: http(s) only, never loopback, private, link-local or metadata addresses',
  }),
  trustedHosts: z.array(z.string()).readonly().optional().meta({
    description: 'Hosts a URL may name although they are on a private network (an intranet image store); exact names',
    flag: 'trusted-host',
    env: 'TOOLSHED_IMAGE_TRUSTED_HOSTS',
    placeholder: 'HOST',
  }),
  dnsServers: z.array(z.string()).readonly().optional().meta({
    description: 'Resolve URL hosts through these DNS servers; default the system resolver',
    flag: 'dns-server',
    env: 'TOOLSHED_IMAGE_DNS_SERVERS',
    placeholder: 'IP[:PORT]',
  }),
  ocrLanguagesDirectory: z.string().optional().meta({
    description:
      'A directory of Tesseract language files (deu.traineddata, or .traineddata.gz) for extract_text beyond the bundled English',
    flag: 'ocr-languages-dir',
    env: 'TOOLSHED_IMAGE_OCR_LANGUAGES_DIR',
    placeholder: 'DIR',
  }),
  limits: z
    .strictObject({
      maxInputBytes: limitOption(50 * 1024 * 1024, 'Bytes an input image may have (file, data or download)'),
      maxInputPixels: limitOption(50_000_000, 'Pixels an input may decode to, all frames together'),
      maxFrames: limitOption(200, 'Frames an animated input may have'),
      maxOutputEdge: limitOption(16_384, 'Width or height a result may have'),
      previewMaxEdge: limitOption(1568, 'Long edge of the image returned to the model'),
      previewMaxBytes: limitOption(
        750_000,
        'Bytes of the image returned to the model, before base64 (about 1 MB after)',
      ),
      timeoutMs: limitOption(30_000, 'Milliseconds one call may take, download and waiting included'),
      maxConcurrent: limitOption(2, 'Images processed at once; more calls wait'),
      maxQueued: limitOption(16, 'Calls that may wait for a turn before more are refused as busy'),
      urlTimeoutMs: limitOption(15_000, 'Milliseconds a download may take, redirects included'),
      maxRedirects: limitOption(3, 'Redirects a download follows, each checked like the first URL'),
      ocrMaxPixels: limitOption(25_000_000, 'Pixels an image may have for extract_text'),
      ocrTimeoutMs: limitOption(60_000, 'Milliseconds one extract_text call may take; its OCR worker is then ended'),
    })
    .prefault({})
    .meta({ flagPrefix: '', description: 'The caps every call is held to' }),
});

export type ImageServerOptions = z.input<typeof imageServerOptions>;

/** The caps every call is held to, with every default filled in. */
export type ImageLimits = z.output<typeof imageServerOptions>['limits'];
