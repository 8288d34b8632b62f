import type { ImageSourceArguments } from './image-source.ts';
import type { OutputArguments } from './transform-image.ts';

/** The source and output fields every transform takes, apart from its own. */
export function splitArguments(args: ImageSourceArguments & OutputArguments): {
  source: ImageSourceArguments;
  output: OutputArguments;
} {
  return {
    source: { path: args.path, url: args.url, data: args.data },
    output: {
      format: args.format,
      quality: args.quality,
      lossless: args.lossless,
      output_name: args.output_name,
      keep_metadata: args.keep_metadata,
    },
  };
}
