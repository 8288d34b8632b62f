/**
 * @module
 * What tests of a store-backed host or server need: a real PostgreSQL from
 * Debian's packages, started on loopback for the test.
 */
export {
  type PostgresStateServer,
  postgresStateService,
  startPostgresStateServer,
} from './testing/postgres-state-server.ts';
