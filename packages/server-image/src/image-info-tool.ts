import { defineTool, structuredResult, type Tool, ToolError } from '@toolshed/mcp-core';
import * as z from 'zod';
import { startDeadline } from './call-deadline.ts';
import { summariseExif } from './exif-summary.ts';
import { probeImage, readHeader } from './image-probe.ts';
import type { ImageServerContext } from './image-server-context.ts';
import { imageSourceFields, loadImage } from './image-source.ts';
import { toolJsonSchemas } from './tool-json-schemas.ts';

function infoShape() {
  return z.object({
    format: z.string(),
    media_type: z.string(),
    width: z.number().int().describe('As displayed: EXIF orientation applied'),
    height: z.number().int().describe('As displayed, of one frame'),
    orientation: z
      .number()
      .int()
      .describe('EXIF orientation, 1 (upright) to 8; 6 and 8 are phone photos taken sideways'),
    channels: z.number().int(),
    has_alpha: z.boolean(),
    color_space: z.string(),
    bit_depth: z.string(),
    frames: z.number().int(),
    animated: z.boolean(),
    loop: z.number().int().optional().describe('Animation repeats; 0 is forever'),
    density_dpi: z.number().optional(),
    progressive: z.boolean(),
    has_icc_profile: z.boolean(),
    exif: z
      .object({
        make: z.string().optional(),
        model: z.string().optional(),
        software: z.string().optional(),
        lens: z.string().optional(),
        taken_at: z.string().optional(),
        exposure_time: z.string().optional(),
        f_number: z.number().optional(),
        iso: z.number().optional(),
        focal_length_mm: z.number().optional(),
      })
      .optional(),
    has_gps: z.boolean().describe('Whether EXIF or XMP holds a location; transforms remove it unless keep_metadata'),
    bytes: z.number().int(),
    processable: z.boolean().describe("Whether the image is within this server's pixel and frame limits"),
    limit: z.string().optional().describe('Which limit it exceeds, when not processable'),
  });
}

export function createImageInfoTool(context: ImageServerContext): Tool {
  return defineTool({
    name: 'image_info',
    title: 'Image Info',
    description:
      'Describe an image from its header, at any size: format, size as displayed, orientation, frames, camera EXIF, ' +
      'GPS presence, whether within the limits. Give one of path, url, data.',
    input: () => z.object(imageSourceFields()),
    output: infoShape,
    jsonSchemas: toolJsonSchemas.image_info,
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: context.fetcher !== undefined,
    },
    async run(args, call) {
      const deadline = startDeadline(context.limits.timeoutMs, call.signal);
      try {
        const input = await deadline.race(loadImage(args, context, deadline.signal));
        const { metadata, format } = await readHeader(input.bytes, input.label);
        let limit: string | undefined;
        try {
          await probeImage(input.bytes, input.label, context.limits);
        } catch (error) {
          if (!(error instanceof ToolError)) throw error;
          limit = error.message;
        }
        const frames = metadata.pages ?? 1;
        const exif = summariseExif(metadata.exif, metadata.xmp);
        const { has_gps: hasGps = false, ...exifFields } = exif ?? {};
        const data: z.infer<ReturnType<typeof infoShape>> = {
          format,
          media_type: format === 'avif' ? 'image/avif' : (metadata.mediaType ?? `image/${format}`),
          width: metadata.autoOrient.width,
          height:
            (metadata.orientation ?? 1) >= 5 ? metadata.autoOrient.height : (metadata.pageHeight ?? metadata.height),
          orientation: metadata.orientation ?? 1,
          channels: metadata.channels,
          has_alpha: metadata.hasAlpha,
          color_space: metadata.space,
          bit_depth: metadata.depth,
          frames,
          animated: frames > 1 && (format === 'gif' || format === 'webp'),
          ...(metadata.loop === undefined ? {} : { loop: metadata.loop }),
          ...(metadata.density === undefined ? {} : { density_dpi: metadata.density }),
          progressive: metadata.isProgressive,
          has_icc_profile: metadata.hasProfile,
          ...(Object.keys(exifFields).length === 0 ? {} : { exif: exifFields }),
          has_gps: hasGps,
          bytes: input.bytes.length,
          processable: limit === undefined,
          ...(limit === undefined ? {} : { limit }),
        };
        return structuredResult(data);
      } finally {
        deadline.dispose();
      }
    },
  });
}
