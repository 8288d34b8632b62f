import { invalidParams } from '../errors/common-protocol-errors.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import { digestOf, type RememberedAnswer, type RequestStatePayload, type RequestStateSeal } from './request-state.ts';

/** A question for the client, as one entry of `inputRequests`. */
export interface InputRequest {
  readonly method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  readonly params: Record<string, unknown>;
}

/** The interim result that ends an attempt which still has questions. */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests: Record<string, InputRequest>;
  requestState: string;
}

const keyPrefix: Record<InputRequest['method'], string> = {
  'elicitation/create': 'elicit',
  'sampling/createMessage': 'sample',
  'roots/list': 'roots',
};

/** What identifies a request across its retries: its method and params, less what changes between rounds. */
export function requestIdentity(method: string, params: Record<string, unknown>): string {
  const { _meta, inputResponses, requestState, ...salient } = params;
  return `${method} ${digestOf(salient)}`;
}

/**
 * One attempt at a multi round-trip request (MRTR). The handler runs from the
 * top on every retry; each question it asks gets a key from its place in the
 * run (`elicit-1`, `sample-2`, …) and is answered from the verified
 * `requestState` (earlier rounds) or this retry's `inputResponses` — only when
 * the question is the very one that was asked. An unanswered question never
 * settles: the handler stops there, so nothing after a question runs before
 * its answer is in. Questions asked in the same turn (`Promise.all`) go out
 * together; the attempt then ends with `input_required`.
 */
export class InputRound {
  readonly #seal: RequestStateSeal;
  readonly #request: string;
  readonly #principal: string;
  readonly #answers = new Map<string, RememberedAnswer>();
  readonly #pending = new Map<string, InputRequest & { question: string }>();
  readonly #ended: Promise<InputRequiredResult>;
  #end!: (result: InputRequiredResult) => void;
  #asked = 0;

  constructor(
    seal: RequestStateSeal,
    request: string,
    principal: string,
    state: RequestStatePayload | undefined,
    responses: Record<string, unknown> | undefined,
  ) {
    this.#seal = seal;
    this.#request = request;
    this.#principal = principal;
    this.#ended = new Promise((resolve) => {
      this.#end = resolve;
    });
    for (const [key, answer] of Object.entries(state?.answers ?? {})) this.#answers.set(key, answer);
    // Only responses to the questions the last round asked count; anything else is ignored, as the spec allows.
    for (const [key, question] of Object.entries(state?.asked ?? {})) {
      const response = responses?.[key];
      if (isPlainObject(response)) this.#answers.set(key, { question, response });
    }
  }

  /**
   * Opens a retry's state and responses into a round. Tampered, expired or
   * misplaced state is -32602; malformed `inputResponses` too.
   */
  static open(seal: RequestStateSeal, method: string, params: Record<string, unknown>, principal: string): InputRound {
    const request = requestIdentity(method, params);
    const { inputResponses, requestState } = params;
    if (inputResponses !== undefined && !isPlainObject(inputResponses)) {
      throw invalidParams('Invalid params: inputResponses must be an object of responses by input key');
    }
    const state = requestState === undefined ? undefined : seal.open(requestState, request, principal);
    return new InputRound(seal, request, principal, state, inputResponses);
  }

  /** Resolves when the attempt has to stop and ask. */
  get ended(): Promise<InputRequiredResult> {
    return this.#ended;
  }

  /** The client's answer to this question, or a promise that never settles while the attempt ends to ask it. */
  ask(method: InputRequest['method'], params: Record<string, unknown>): Promise<Record<string, unknown>> {
    this.#asked += 1;
    const key = `${keyPrefix[method]}-${this.#asked}`;
    const question = digestOf({ method, params });
    const answer = this.#answers.get(key);
    if (answer !== undefined && answer.question === question) return Promise.resolve(answer.response);
    if (this.#pending.size === 0) setImmediate(() => this.#end(this.#interim()));
    this.#pending.set(key, { method, params, question });
    return new Promise(() => {});
  }

  #interim(): InputRequiredResult {
    const inputRequests: Record<string, InputRequest> = {};
    const asked: Record<string, string> = {};
    for (const [key, { method, params, question }] of this.#pending) {
      inputRequests[key] = { method, params };
      asked[key] = question;
    }
    const answers: Record<string, RememberedAnswer> = {};
    for (const [key, answer] of this.#answers) if (!(key in asked)) answers[key] = answer;
    const requestState = this.#seal.seal({
      request: this.#request,
      principal: this.#principal,
      expiresAt: Date.now() + this.#seal.lifetimeMs,
      answers,
      asked,
    });
    return { resultType: 'input_required', inputRequests, requestState };
  }
}
