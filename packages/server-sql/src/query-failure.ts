import type { QueryFailureCode } from './query-messages.ts';

/** A refusal or SQL error inside a query process, sent back as a failed response. */
export class QueryFailure extends Error {
  readonly code: QueryFailureCode;

  constructor(code: QueryFailureCode, message: string) {
    super(message);
    this.name = 'QueryFailure';
    this.code = code;
  }
}
