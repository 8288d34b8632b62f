/**
 * `create-toolshed-server`: makes a new MCP server project on
 * @toolshed/mcp-core — as a library for tools that make projects, and as the
 * bin `npm create toolshed-server` runs.
 *
 * @module
 */
export { type CreateOptions, createOptionsProblems, descriptionLimit, type PackageManager } from './create-options.ts';
export { createUsage, parseCreateArguments } from './parse-create-arguments.ts';
export { type CreateCliIo, runCreateCli } from './run-create-cli.ts';
export { writeProject } from './write-project.ts';
