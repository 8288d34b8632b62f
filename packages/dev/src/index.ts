/**
 * `@toolshed/dev`: the release tooling of MCP servers on @toolshed/mcp-core —
 * the pack check, `server.json` for the MCP Registry, `.mcpb` bundles and the
 * README options table — as a library and as the `toolshed-dev` bin.
 *
 * @module
 */
export { type BuildBundlesOptions, buildBundles } from './build-bundles.ts';
export { runDevCli } from './dev-cli.ts';
export { type BundleInput, buildMcpbBundle } from './mcpb-bundle.ts';
export {
  bundledPackageDirectory,
  bundleLauncherPath,
  type McpbManifestOptions,
  mcpbManifest,
} from './mcpb-manifest.ts';
export { type WriteOptionsTablesOptions, writeOptionsTables } from './options-tables.ts';
export type { BundleSampleValue } from './pack-check/bundle-checks.ts';
export { inMemoryCallScript, type SmokeCheck } from './pack-check/in-memory-call-script.ts';
export { type PackCheckOptions, type PackCheckResult, runPackCheck } from './pack-check/run-pack-check.ts';
export { type PackageManifest, readPackageManifest } from './package-manifest.ts';
export { type ProjectConfig, readProjectConfig } from './project-config.ts';
export { serverJson, serverJsonSchemaUrl, type WriteServerJsonOptions, writeServerJsonFiles } from './server-json.ts';
export { serverJsonProblems } from './server-json-schema.ts';
export {
  loadServerCli,
  type OptionField,
  registryDescriptionLimit,
  type ServerCliShape,
  type ServerPackage,
} from './server-package.ts';
