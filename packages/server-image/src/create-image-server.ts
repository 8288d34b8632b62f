import { createOutboundFetcher, PathGuard } from '@toolshed/guards';
import { createMcpServer, LocalError, type McpServer, packageVersion, parseOptions } from '@toolshed/mcp-core';
import { createCompareImagesTool } from './compare-images-tool.ts';
import { createExtractTextTool } from './extract-text-tool.ts';
import { createImageInfoTool } from './image-info-tool.ts';
import type { ImageServerContext } from './image-server-context.ts';
import { type ImageServerOptions, imageServerOptions } from './image-server-options.ts';
import { OcrWorkers } from './ocr-workers.ts';
import { createPreviewSourceImageTool } from './preview-source-image-tool.ts';
import { createProcessImageTool } from './process-image-tool.ts';
import { createProcessImageView } from './process-image-view.ts';
import { WorkLimiter } from './work-limiter.ts';

const serverVersion = packageVersion(import.meta.url);

function inputGuard(options: ImageServerOptions): PathGuard | undefined {
  const grants = [
    // Inputs are only ever read, whatever access a grant was written with.
    ...(options.directories ?? []).map((directory) =>
      typeof directory === 'string'
        ? `${directory.replace(/:(ro|rw)$/, '')}:ro`
        : { path: directory.path, access: 'read' as const },
    ),
    ...(options.outputDirectory === undefined ? [] : [`${options.outputDirectory}:ro`]),
  ];
  return grants.length === 0 ? undefined : PathGuard.create(grants, { readOnly: true });
}

/**
 * An image server on sharp: image_info; process_image, which resizes, crops,
 * rotates, converts, thumbnails, watermarks, adjusts and writes metadata in
 * one pass; extract_text (OCR); and compare_images. Inputs come from the allowed
 * directories, as base64, or (when allowed) from public URLs; results come
 * back as images fitted to what clients accept, and full-size into the
 * output directory when there is one.
 *
 * @example
 * const server = createImageServer({ directories: ['~/Pictures'], outputDirectory: '~/Pictures/out' });
 */
export function createImageServer(input: ImageServerOptions = {}): McpServer {
  const options = parseOptions(imageServerOptions, input, '@toolshed/server-image options');
  const { limits } = options;
  if (limits.previewMaxEdge > limits.maxOutputEdge) {
    throw new LocalError('config_invalid', 'previewMaxEdge cannot be larger than maxOutputEdge');
  }
  const context: ImageServerContext = {
    limits,
    inputs: inputGuard(options),
    outputs:
      options.outputDirectory === undefined
        ? undefined
        : PathGuard.create([{ path: options.outputDirectory, access: 'write' }]),
    fetcher: options.allowUrls
      ? createOutboundFetcher({
          maxBytes: limits.maxInputBytes,
          timeoutMs: limits.urlTimeoutMs,
          maxRedirects: limits.maxRedirects,
          dnsServers: options.dnsServers,
          trustedHosts: options.trustedHosts,
          accept: 'image/avif,image/webp,image/png,image/jpeg,image/gif,image/tiff;q=0.9,*/*;q=0.5',
          userAgent: `toolshed-image/${serverVersion}`,
        })
      : undefined,
    limiter: new WorkLimiter(limits.maxConcurrent, limits.maxQueued),
    ocr: new OcrWorkers(limits.maxConcurrent),
    ocrLanguagesDirectory: options.ocrLanguagesDirectory,
  };
  const sources = [
    context.inputs === undefined ? undefined : 'a path in the allowed directories',
    'base64 data',
    context.fetcher === undefined ? undefined : 'a public http(s) URL',
  ].filter((source) => source !== undefined);
  return createMcpServer({
    name: 'toolshed-image',
    title: 'Toolshed Image',
    version: serverVersion,
    instructions:
      `Image tools on sharp. Give each image as ${sources.join(', or ')}. Use image_info first when you need the size. ` +
      'process_image applies one or more steps in order, with one decode and one encode; extract_text reads text (OCR); ' +
      'compare_images compares two images. Results come back as images you can see' +
      (context.outputs === undefined ? '.' : ', and full-size files in the output directory.'),
    tools: [
      createImageInfoTool(context),
      createProcessImageTool(context),
      createPreviewSourceImageTool(context),
      createExtractTextTool(context),
      createCompareImagesTool(context),
    ],
    resources: [createProcessImageView()],
    onClose: async () => {
      await Promise.all([context.fetcher?.close(), context.ocr.close()]);
    },
  });
}
