import type { PathAccess } from '@toolshed/guards';

/** The caps every call is held to; each has a flag in the bin. */
export interface ImageLimits {
  /** Bytes an input (file, data or download) may have. */
  maxInputBytes: number;
  /** Pixels an input may decode to, every frame counted. Well under sharp's own 268 MP default. */
  maxInputPixels: number;
  /** Frames an animated input may have. */
  maxFrames: number;
  /** Width or height an operation may produce. */
  maxOutputEdge: number;
  /** The long edge of the image returned to the model; clients scale larger ones down anyway. */
  previewMaxEdge: number;
  /** Bytes of the image returned to the model (base64 adds a third); clients reject results near 1 MB. */
  previewMaxBytes: number;
  /** Milliseconds one call may take, download and queueing included. */
  timeoutMs: number;
  /** Images processed at once; more calls wait. */
  maxConcurrent: number;
  /** Calls that may wait for a turn; past that, a call is refused as busy. */
  maxQueued: number;
  /** Milliseconds a download may take. */
  urlTimeoutMs: number;
  /** Redirects a download follows, each checked like the first URL. */
  maxRedirects: number;
}

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

export interface ImageServerOptions {
  /**
   * Directories images may be read from: `DIR` (or objects). Each must exist.
   * Without any, only `data` (and `url`, when allowed) inputs work.
   */
  directories?: readonly (string | { path: string; access?: PathAccess })[] | undefined;
  /**
   * Where full-resolution results are written (atomically) and returned as
   * resource links. It must exist. Images there can be read back as inputs.
   * Without it, only the fitted preview is returned.
   */
  outputDirectory?: string | undefined;
  /** Accept `url` inputs (http and https only, never private addresses). Default: false. */
  allowUrls?: boolean | undefined;
  /** Hosts a URL may name although they are on a private network: an intranet image store. */
  trustedHosts?: readonly string[] | undefined;
  /** Resolve URL hosts through these DNS servers (`IP` or `IP:PORT`) instead of the system's. */
  dnsServers?: readonly string[] | undefined;
  limits?: Partial<ImageLimits> | undefined;
}
