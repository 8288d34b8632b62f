import type { OutboundFetcher, PathGuard } from '@toolshed/guards';
import type { ImageLimits } from './image-server-options.ts';
import type { OcrWorkers } from './ocr-workers.ts';
import type { WorkLimiter } from './work-limiter.ts';

/** What every tool of one server shares. */
export interface ImageServerContext {
  readonly limits: ImageLimits;
  /** The directories inputs may come from (the output directory included); undefined when none. */
  readonly inputs: PathGuard | undefined;
  /** The output directory; undefined when results are returned only as previews. */
  readonly outputs: PathGuard | undefined;
  /** Downloads for `url` inputs; undefined when the operator has not allowed them. */
  readonly fetcher: OutboundFetcher | undefined;
  readonly limiter: WorkLimiter;
  readonly ocr: OcrWorkers;
  /** The operator's Tesseract language files; undefined when only the bundled English is read. */
  readonly ocrLanguagesDirectory: string | undefined;
}
