/**
 * Test helpers: connect an official SDK client (v1, or v2 in either protocol
 * era; or, for benchmarks, a bare JSON-RPC client) to a server in memory, over
 * stdio or over HTTP, record
 * every message, check them against the official schemas, start a bin over
 * HTTP, and start the real services some tests need (DESIGN.md, "Real services
 * in tests").
 *
 * @module
 */

export { awaitTask } from './testing/await-task.ts';
export { type BareClient, connectBareClient } from './testing/bare-client.ts';
export { binTelemetryCases, type TimedTestRegistrar } from './testing/bin-telemetry-cases.ts';
export { binTelemetryProblems } from './testing/bin-telemetry-problems.ts';
export { type BinUnderTest, checkBin } from './testing/check-bin.ts';
export { type ConnectableClient, connectInMemory, type InMemoryConnection } from './testing/connect-in-memory.ts';
export {
  binTestCases,
  connectTestClient,
  expectedProtocolVersion,
  JsonRpcFailure,
  type TestCallResult,
  type TestClient,
  type TestClientKind,
  type TestClientOptions,
  type TestTarget,
  type TestTransportKind,
  testClientKinds,
} from './testing/connect-test-client.ts';
export {
  type ClientTransportLike,
  type MessageRecording,
  type RecordedMessage,
  recordMessages,
} from './testing/message-recorder.ts';
export { loadsOpenTelemetry } from './testing/opentelemetry-load-probe.ts';
export { optionsTableProblems } from './testing/options-table-problems.ts';
export {
  type OtlpReceiver,
  type ReceivedHistogramPoint,
  type ReceivedSpan,
  startOtlpReceiver,
} from './testing/otlp-receiver.ts';
export { initPostgresCluster, type PostgresCluster, postgresService } from './testing/real-postgres.ts';
export {
  alivePids,
  childExited,
  freeLoopbackPort,
  loopbackPortAnswers,
  type ProcessTreeUsage,
  processTree,
  processTreeUsage,
  type RealService,
  type ServiceProcess,
  type ServiceStart,
  serviceGate,
  startServiceProcess,
  type TestRegistrar,
  unprivilegedIds,
} from './testing/real-service.ts';
export { type SpawnedHttpServer, spawnHttpServer } from './testing/spawn-http-server.ts';
export { createSpecValidator, type SpecValidator, specSchemaVersions } from './testing/spec-schema-validator.ts';
export { startTokenIssuer, type TokenIssuer } from './testing/token-issuer.ts';
export { toolJsonSchemaModule } from './testing/tool-json-schema-module.ts';
