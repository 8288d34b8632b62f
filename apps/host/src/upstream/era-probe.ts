import { type Implementation, MetaKey, modernProtocolVersions } from '@toolshed/mcp-core';
import { HttpStatusError } from './http-status-error.ts';
import { UpstreamClosedError, UpstreamRpcError } from './upstream-errors.ts';

/** What became of the `server/discover` sent first on a new connection. */
export type ProbeOutcome =
  | { kind: 'result'; result: unknown }
  | { kind: 'rpc-error'; code: number; message: string; data?: unknown }
  /** An HTTP status whose body was not a JSON-RPC error. */
  | { kind: 'http-error'; status: number; body: string }
  /** The connection closed before an answer: a child that exits on a request it does not know. */
  | { kind: 'closed' }
  /** No answer within the probe time limit (local connections only: over HTTP silence is an outage). */
  | { kind: 'timeout'; timeLimitMs: number }
  | { kind: 'failure'; error: unknown };

/** The outcome of a probe that did not bring a result, from how its request failed. */
export function probeOutcomeOf(error: unknown, timedOut: boolean, timeLimitMs: number): ProbeOutcome {
  if (timedOut) return { kind: 'timeout', timeLimitMs };
  if (error instanceof UpstreamClosedError) return { kind: 'closed' };
  if (error instanceof UpstreamRpcError)
    return { kind: 'rpc-error', code: error.code, message: error.message, data: error.data };
  if (error instanceof HttpStatusError) return { kind: 'http-error', status: error.status, body: error.body };
  return { kind: 'failure', error };
}

/** A modern server's description of itself. */
export interface DiscoverAnswer {
  supportedVersions: string[];
  capabilities: Record<string, unknown>;
  instructions: string | undefined;
  serverInfo: Implementation | undefined;
}

export type ProbeVerdict =
  | { kind: 'modern'; version: string; discover: DiscoverAnswer }
  /** A modern server that did not take the version asked for but named one the host speaks. */
  | { kind: 'retry'; version: string }
  /** Not recognisably modern: speak the legacy era, on the same connection. */
  | { kind: 'legacy'; reason: string }
  | {
      kind: 'error';
      message: string;
      /** The connection is gone, but what happened says the server is legacy: skip the probe next time. */
      legacyNextTime?: boolean;
    };

const unsupportedProtocolVersion = -32022;

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string')
    ? value
    : undefined;
}

function discoverAnswer(result: unknown): DiscoverAnswer | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const candidate = result as Record<string, unknown>;
  const supportedVersions = stringList(candidate.supportedVersions);
  if (supportedVersions === undefined) return undefined;
  if (typeof candidate.capabilities !== 'object' || candidate.capabilities === null) return undefined;
  const meta = candidate._meta as Record<string, unknown> | undefined;
  return {
    supportedVersions,
    capabilities: candidate.capabilities as Record<string, unknown>,
    instructions: typeof candidate.instructions === 'string' ? candidate.instructions : undefined,
    serverInfo: meta?.[MetaKey.serverInfo] as Implementation | undefined,
  };
}

function isModern(version: string): boolean {
  // Revisions are dates; the modern era starts with the first stateless one.
  return version >= '2026-07-28';
}

/**
 * Reads the probe's outcome the way the transports' backward-compatibility
 * rules say: a DiscoverResult or a recognised modern error means a modern
 * server; anything else — whatever the error code, since legacy servers
 * answer an unknown request before `initialize` in many ways — means legacy.
 * Errors that say nothing about the era (an outage, a refused credential, a
 * server fault) are errors, never a reason to fall back.
 */
export function classifyProbe(outcome: ProbeOutcome): ProbeVerdict {
  switch (outcome.kind) {
    case 'result': {
      const discover = discoverAnswer(outcome.result);
      if (discover === undefined)
        return { kind: 'legacy', reason: 'its answer to server/discover is no DiscoverResult' };
      const version = modernProtocolVersions.find((candidate) => discover.supportedVersions.includes(candidate));
      if (version !== undefined) return { kind: 'modern', version, discover };
      // A dual-era server with no modern revision in common may still take the handshake.
      return {
        kind: 'legacy',
        reason: `it supports ${discover.supportedVersions.join(', ')}, no stateless revision the host speaks`,
      };
    }
    case 'rpc-error': {
      if (outcome.code === unsupportedProtocolVersion) {
        const supported = stringList((outcome.data as { supported?: unknown } | undefined)?.supported);
        if (supported === undefined) return { kind: 'legacy', reason: 'it answered -32022 without a list of versions' };
        const version = modernProtocolVersions.find((candidate) => supported.includes(candidate));
        if (version !== undefined) return { kind: 'retry', version };
        if (supported.some(isModern)) {
          return {
            kind: 'error',
            message: `it speaks only ${supported.join(', ')}; the host speaks ${modernProtocolVersions.join(', ')} and the 2025 revisions`,
          };
        }
        return { kind: 'legacy', reason: `it supports only ${supported.join(', ')}` };
      }
      return {
        kind: 'legacy',
        reason: `it answered server/discover with error ${outcome.code}${outcome.message === '' ? '' : ` (${outcome.message})`}`,
      };
    }
    case 'http-error': {
      const answered = `answered server/discover with HTTP ${outcome.status}${outcome.body === '' ? '' : `: ${outcome.body.slice(0, 200)}`}`;
      if (outcome.status === 401 || outcome.status === 403 || outcome.status >= 500 || outcome.status < 400) {
        return { kind: 'error', message: answered };
      }
      return { kind: 'legacy', reason: `it ${answered}` };
    }
    case 'closed':
      return {
        kind: 'error',
        message: 'it closed the connection when asked server/discover; it will be spoken to in the legacy era',
        legacyNextTime: true,
      };
    case 'timeout':
      return { kind: 'legacy', reason: `it did not answer server/discover within ${outcome.timeLimitMs} ms` };
    case 'failure':
      return {
        kind: 'error',
        message: outcome.error instanceof Error ? outcome.error.message : String(outcome.error),
      };
  }
}
