/**
 * The `toolshed-image` bin: directories as arguments, flags and environment →
 * createImageServer → stdio, or Streamable HTTP with --http.
 */
import { defineCli, httpCliOptions, limitOption, runCli, serve, withoutHttpValues } from '@toolshed/mcp-core';
import { createImageServer } from './create-image-server.ts';
import { defaultImageLimits } from './image-server-options.ts';

const limits = defaultImageLimits;

const cli = defineCli({
  name: 'toolshed-image',
  version: '0.1.0',
  summary: 'Image tools on sharp that return images a model can see, as an MCP server over stdio or Streamable HTTP',
  operands: {
    placeholder: 'DIR...',
    description: 'Directories images may be read from (never written)',
  },
  options: {
    dir: {
      type: 'list',
      env: 'TOOLSHED_IMAGE_DIRS',
      placeholder: 'DIR',
      description: 'Another directory to read images from (the variable takes a comma list)',
    },
    outputDir: {
      type: 'string',
      env: 'TOOLSHED_IMAGE_OUTPUT_DIR',
      placeholder: 'DIR',
      description: 'Write full-size results here (atomically, never replacing a file) and link them in results',
    },
    allowUrls: {
      type: 'boolean',
      env: 'TOOLSHED_IMAGE_ALLOW_URLS',
      default: false,
      description: 'Accept url inputs: http(s) only, never loopback, private, link-local or metadata addresses',
    },
    trustedHost: {
      type: 'list',
      env: 'TOOLSHED_IMAGE_TRUSTED_HOSTS',
      placeholder: 'HOST',
      description: 'A host that may be on a private network (an intranet image store); exact names only',
    },
    dnsServer: {
      type: 'list',
      env: 'TOOLSHED_IMAGE_DNS_SERVERS',
      placeholder: 'IP[:PORT]',
      description: 'Resolve URL hosts through these DNS servers (default: the system resolver)',
    },
    maxInputBytes: limitOption('TOOLSHED_IMAGE_MAX_INPUT_BYTES', 'Bytes an input image may have', limits.maxInputBytes),
    maxInputPixels: limitOption(
      'TOOLSHED_IMAGE_MAX_INPUT_PIXELS',
      'Pixels an input may decode to, all frames together',
      limits.maxInputPixels,
    ),
    maxFrames: limitOption('TOOLSHED_IMAGE_MAX_FRAMES', 'Frames an animated input may have', limits.maxFrames),
    maxOutputEdge: limitOption(
      'TOOLSHED_IMAGE_MAX_OUTPUT_EDGE',
      'Width or height a result may have',
      limits.maxOutputEdge,
    ),
    previewMaxEdge: limitOption(
      'TOOLSHED_IMAGE_PREVIEW_MAX_EDGE',
      'Long edge of the image returned to the model',
      limits.previewMaxEdge,
    ),
    previewMaxBytes: limitOption(
      'TOOLSHED_IMAGE_PREVIEW_MAX_BYTES',
      'Bytes of the image returned to the model (before base64)',
      limits.previewMaxBytes,
    ),
    timeoutMs: limitOption('TOOLSHED_IMAGE_TIMEOUT_MS', 'Milliseconds one call may take', limits.timeoutMs),
    maxConcurrent: limitOption('TOOLSHED_IMAGE_MAX_CONCURRENT', 'Images processed at once', limits.maxConcurrent),
    maxQueued: limitOption(
      'TOOLSHED_IMAGE_MAX_QUEUED',
      'Calls that may wait for a turn before more are refused as busy',
      limits.maxQueued,
    ),
    urlTimeoutMs: limitOption('TOOLSHED_IMAGE_URL_TIMEOUT_MS', 'Milliseconds a download may take', limits.urlTimeoutMs),
    maxRedirects: limitOption('TOOLSHED_IMAGE_MAX_REDIRECTS', 'Redirects a download follows', limits.maxRedirects),
    ...httpCliOptions,
  },
  examples: [
    'toolshed-image ~/Pictures',
    'toolshed-image ~/Pictures --output-dir ~/Pictures/edited',
    'toolshed-image --allow-urls --output-dir /srv/images/out --http 127.0.0.1:3000',
  ],
});

await runCli(cli, process.argv.slice(2), process.env, (values, operands) => {
  const { dir, outputDir, allowUrls, trustedHost, dnsServer, ...limits } = withoutHttpValues(values);
  const server = createImageServer({
    directories: [...operands, ...(dir ?? [])],
    outputDirectory: outputDir,
    allowUrls,
    trustedHosts: trustedHost,
    dnsServers: dnsServer,
    limits,
  });
  return serve(server, values);
});
