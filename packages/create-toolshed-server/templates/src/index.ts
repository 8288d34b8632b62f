/**
 * `__PACKAGE_NAME__`: __DESCRIPTION__
 *
 * @module
 */
export { createServer } from './create-server.ts';
export { serverCli } from './server-cli.ts';
export { type ParsedServerOptions, type ServerOptions, serverOptions } from './server-options.ts';
