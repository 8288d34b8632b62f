/**
 * Test helpers: connect an official SDK client to a server in memory, record
 * every message, check them against the official schemas, and start a bin
 * over HTTP.
 *
 * @module
 */
export { type ConnectableClient, connectInMemory, type InMemoryConnection } from './testing/connect-in-memory.ts';
export {
  type ClientTransportLike,
  type MessageRecording,
  type RecordedMessage,
  recordMessages,
} from './testing/message-recorder.ts';
export { type SpawnedHttpServer, spawnHttpServer } from './testing/spawn-http-server.ts';
export { createSpecValidator, type SpecValidator, specSchemaVersions } from './testing/spec-schema-validator.ts';
