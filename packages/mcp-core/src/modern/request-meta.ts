import { invalidParams, unsupportedProtocolVersion } from '../errors/common-protocol-errors.ts';
import { isLogLevel, type LogLevel } from '../logging/log-level.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import type { JsonRpcParams } from '../messages/jsonrpc-message.ts';
import type { ClientCapabilities, Implementation } from '../protocol/mcp-types.ts';
import { MetaKey } from '../protocol/meta-keys.ts';
import { isModernProtocolVersion } from '../protocol/protocol-version.ts';

/** What a 2026-era request says about itself in `_meta`: everything a session used to remember. */
export interface RequestMeta {
  readonly protocolVersion: string;
  readonly clientInfo: Implementation | undefined;
  readonly capabilities: ClientCapabilities;
  /** Absent means no `notifications/message` at all for this request. */
  readonly logLevel: LogLevel | undefined;
  readonly progressToken: string | number | undefined;
}

/** Whether a request speaks the stateless era: it names its protocol version in `_meta`. */
export function declaresModernMeta(params: JsonRpcParams | undefined): boolean {
  const meta = params?._meta;
  return isPlainObject(meta) && MetaKey.protocolVersion in meta;
}

/**
 * The version a request names in `_meta`, once the fields every request must
 * carry are there: a missing one is -32602, checked before anything else.
 */
export function requireMetaFields(params: JsonRpcParams | undefined): string {
  const meta = params?._meta;
  if (!isPlainObject(meta)) {
    throw invalidParams(
      `Invalid params: _meta is required, with "${MetaKey.protocolVersion}" and "${MetaKey.clientCapabilities}"`,
    );
  }
  const protocolVersion = meta[MetaKey.protocolVersion];
  if (typeof protocolVersion !== 'string') {
    throw invalidParams(`Invalid params: _meta["${MetaKey.protocolVersion}"] is required, a version string`);
  }
  if (!isPlainObject(meta[MetaKey.clientCapabilities])) {
    throw invalidParams(`Invalid params: _meta["${MetaKey.clientCapabilities}"] is required and must be an object`);
  }
  return protocolVersion;
}

/**
 * Reads and checks a request's `_meta`. A missing required field is -32602;
 * a version we do not speak is -32022 with the list we do.
 */
export function readRequestMeta(params: JsonRpcParams | undefined): RequestMeta {
  const protocolVersion = requireMetaFields(params);
  if (!isModernProtocolVersion(protocolVersion)) throw unsupportedProtocolVersion(protocolVersion);
  const meta = params?._meta as Record<string, unknown>;
  const capabilities = meta[MetaKey.clientCapabilities];
  const clientInfo = meta[MetaKey.clientInfo];
  if (clientInfo !== undefined && !(isPlainObject(clientInfo) && typeof clientInfo.name === 'string')) {
    throw invalidParams(`Invalid params: _meta["${MetaKey.clientInfo}"] must be an object with a name`);
  }
  const logLevel = meta[MetaKey.logLevel];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    throw invalidParams(`Invalid params: _meta["${MetaKey.logLevel}"] must be a log level such as "info"`);
  }
  const token = meta.progressToken;
  return {
    protocolVersion,
    clientInfo: clientInfo as Implementation | undefined,
    capabilities: capabilities as ClientCapabilities,
    logLevel,
    progressToken: typeof token === 'string' || Number.isSafeInteger(token) ? (token as string | number) : undefined,
  };
}
