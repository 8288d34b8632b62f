/**
 * One MCP endpoint for many servers.
 *
 * @module
 */

export type { HostConfig, HostOptions, HostSettings, ServerEntry, ToolList } from './config/host-config.ts';
export { loadHostConfig, parseHostConfig } from './config/load-config.ts';
export {
  type CreateHostOptions,
  createHost,
  type Host,
  type HostToolRow,
  type ReloadSummary,
} from './create-host.ts';
