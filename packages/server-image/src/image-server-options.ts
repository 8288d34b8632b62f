import type { PathAccess } from '@toolshed/guards';
import * as z from 'zod';

// The value checks of a cap (a whole number of at least 1) stay in resolveLimits, which names the cap in its message.
type LimitSchema = z.ZodOptional<z.ZodNumber>;

// Shapes are spelt out as types because exported schemas need declared types under isolatedDeclarations.
type ImageLimitsShape = {
  /** Bytes an input (file, data or download) may have. */
  maxInputBytes: LimitSchema;
  /** Pixels an input may decode to, every frame counted. Well under sharp's own 268 MP default. */
  maxInputPixels: LimitSchema;
  /** Frames an animated input may have. */
  maxFrames: LimitSchema;
  /** Width or height an operation may produce. */
  maxOutputEdge: LimitSchema;
  /** The long edge of the image returned to the model; clients scale larger ones down anyway. */
  previewMaxEdge: LimitSchema;
  /** Bytes of the image returned to the model (base64 adds a third); clients reject results near 1 MB. */
  previewMaxBytes: LimitSchema;
  /** Milliseconds one call may take, download and queueing included. */
  timeoutMs: LimitSchema;
  /** Images processed at once; more calls wait. */
  maxConcurrent: LimitSchema;
  /** Calls that may wait for a turn; past that, a call is refused as busy. */
  maxQueued: LimitSchema;
  /** Milliseconds a download may take. */
  urlTimeoutMs: LimitSchema;
  /** Redirects a download follows, each checked like the first URL. */
  maxRedirects: LimitSchema;
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
  /**
   * Directories images may be read from: `DIR` (or objects). Each must exist.
   * Without any, only `data` (and `url`, when allowed) inputs work.
   */
  directories: z.ZodOptional<z.ZodReadonly<z.ZodArray<DirectoryGrantSchema>>>;
  /**
   * Where full-resolution results are written (atomically) and returned as
   * resource links. It must exist. Images there can be read back as inputs.
   * Without it, only the fitted preview is returned.
   */
  outputDirectory: z.ZodOptional<z.ZodString>;
  /** Accept `url` inputs (http and https only, never private addresses). Default: false. */
  allowUrls: z.ZodOptional<z.ZodBoolean>;
  /** Hosts a URL may name although they are on a private network: an intranet image store. */
  trustedHosts: z.ZodOptional<z.ZodReadonly<z.ZodArray<z.ZodString>>>;
  /** Resolve URL hosts through these DNS servers (`IP` or `IP:PORT`) instead of the system's. */
  dnsServers: z.ZodOptional<z.ZodReadonly<z.ZodArray<z.ZodString>>>;
  /** The caps every call is held to; each left out keeps its default. */
  limits: z.ZodOptional<z.ZodObject<ImageLimitsShape, z.core.$strict>>;
};

const pathAccesses = ['read', 'write'] as const satisfies readonly PathAccess[];

/**
 * Every option `createImageServer` takes. Strict, nested objects too: an
 * unknown key is refused with its path and the closest valid name, so a
 * misspelt cap is never silently left at its default.
 *
 * @example
 * const options = imageServerOptions.parse({ directories: ['~/Pictures'], limits: { maxFrames: 50 } });
 */
export const imageServerOptions: z.ZodObject<ImageServerOptionsShape, z.core.$strict> = z.strictObject({
  directories: z
    .array(z.union([z.string(), z.strictObject({ path: z.string(), access: z.enum(pathAccesses).exactOptional() })]))
    .readonly()
    .optional(),
  outputDirectory: z.string().optional(),
  allowUrls: z.boolean().optional(),
  trustedHosts: z.array(z.string()).readonly().optional(),
  dnsServers: z.array(z.string()).readonly().optional(),
  limits: z
    .strictObject({
      maxInputBytes: z.number().optional(),
      maxInputPixels: z.number().optional(),
      maxFrames: z.number().optional(),
      maxOutputEdge: z.number().optional(),
      previewMaxEdge: z.number().optional(),
      previewMaxBytes: z.number().optional(),
      timeoutMs: z.number().optional(),
      maxConcurrent: z.number().optional(),
      maxQueued: z.number().optional(),
      urlTimeoutMs: z.number().optional(),
      maxRedirects: z.number().optional(),
    })
    .optional(),
});

export type ImageServerOptions = z.input<typeof imageServerOptions>;

/** The caps every call is held to; each has a flag in the bin. */
export type ImageLimits = { [Key in keyof ImageLimitsShape]: number };

export const defaultImageLimits: ImageLimits = {
  maxInputBytes: 50 * 1024 * 1024,
  maxInputPixels: 50_000_000,
  maxFrames: 200,
  maxOutputEdge: 16_384,
  previewMaxEdge: 1568,
  previewMaxBytes: 750_000,
  timeoutMs: 30_000,
  maxConcurrent: 2,
  maxQueued: 16,
  urlTimeoutMs: 15_000,
  maxRedirects: 3,
};
