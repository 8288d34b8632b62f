/**
 * Image tools for MCP clients on sharp, with limits that keep a server up.
 *
 * @module
 */
export { createImageServer } from './create-image-server.ts';
export { type ImageLimits, type ImageServerOptions, imageServerOptions } from './image-server-options.ts';
