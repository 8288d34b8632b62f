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

/** A question's key: the tool's own, or one made from the question, so an answer fits only the question it was given to. */
export function questionKey(method: InputRequest['method'], params: Record<string, unknown>, key?: string): string {
  return key ?? `${keyPrefix[method]}-${digestOf({ method, params }).slice(0, 10)}`;
}

function isAnswerTo(method: InputRequest['method'], response: unknown): response is Record<string, unknown> {
  if (!isPlainObject(response)) return false;
  switch (method) {
    case 'elicitation/create':
      return response.action === 'accept' || response.action === 'decline' || response.action === 'cancel';
    case 'sampling/createMessage':
      return typeof response.role === 'string' && isPlainObject(response.content) && typeof response.model === 'string';
    case 'roots/list':
      return Array.isArray(response.roots);
  }
}

/** The keys of an attempt that asked nothing. */
const noKeys: ReadonlySet<string> = new Set();

/**
 * One attempt at a multi round-trip request (MRTR). The handler runs from the
 * top on every retry. Each question it asks has a key — the tool's own, or
 * one derived from the question itself (`elicit-3f9a…`), so an answer can
 * only ever be taken for the question it was given to — and is answered from
 * the verified `requestState` (earlier rounds) or this retry's
 * `inputResponses`. An unanswered question never settles: the handler stops
 * there, so nothing after a question runs before its answer is in. Questions
 * asked in the same turn (`Promise.all`) go out together; the attempt then
 * ends with `input_required`, carrying every answer so far in signed state.
 */
export class InputRound {
  readonly #seal: RequestStateSeal;
  /** What identifies the request across retries; computed only when state is sealed or opened. */
  readonly #request: () => string;
  readonly #principal: string;
  readonly #remembered: Readonly<Record<string, RememberedAnswer>>;
  /** The state this attempt was retried with, if any. */
  readonly state: RequestStatePayload | undefined;
  readonly #responses: Record<string, unknown>;
  // What an attempt asks is kept only once it asks: most calls never do, and finish without making any of it.
  /** Answers used in this attempt, to carry into the next round's state. */
  #answered: Map<string, RememberedAnswer> | undefined;
  #pending: Map<string, InputRequest> | undefined;
  #keys: Set<string> | undefined;
  #ended: Promise<InputRequiredResult> | undefined;
  #end: ((result: InputRequiredResult) => void) | undefined;

  constructor(
    seal: RequestStateSeal,
    request: () => string,
    principal: string,
    state: RequestStatePayload | undefined,
    responses: Record<string, unknown> | undefined,
  ) {
    this.#seal = seal;
    this.#request = request;
    this.#principal = principal;
    this.#remembered = state?.answers ?? {};
    this.state = state;
    this.#responses = responses ?? {};
  }

  /**
   * Opens a retry's state and responses into a round. Tampered, expired or
   * misplaced state is -32602; so is `inputResponses` that is not an object.
   * Responses to questions that are not asked again are ignored, as the spec allows.
   */
  static open(seal: RequestStateSeal, method: string, params: Record<string, unknown>, principal: string): InputRound {
    // Most calls never ask: the digest that binds state to the request is made only when state is in play.
    let identity: string | undefined;
    const request = () => {
      identity ??= requestIdentity(method, params);
      return identity;
    };
    const { inputResponses, requestState } = params;
    if (inputResponses !== undefined && !isPlainObject(inputResponses)) {
      throw invalidParams('Invalid params: inputResponses must be an object of responses by input key');
    }
    const state = requestState === undefined ? undefined : seal.open(requestState, request(), principal);
    return new InputRound(seal, request, principal, state, inputResponses);
  }

  /** Whether the attempt has a question waiting: it is about to end to ask it. */
  get asking(): boolean {
    return this.#pending !== undefined && this.#pending.size > 0;
  }

  /** Every key given to a question so far in this attempt. */
  get usedKeys(): ReadonlySet<string> {
    return this.#keys ?? noKeys;
  }

  /** Resolves when the attempt has to stop and ask. */
  get ended(): Promise<InputRequiredResult> {
    this.#ended ??= new Promise((resolve) => {
      this.#end = resolve;
    });
    return this.#ended;
  }

  /** The client's answer to this question, or a promise that never settles while the attempt ends to ask it. */
  ask(method: InputRequest['method'], params: Record<string, unknown>, key?: string): Promise<Record<string, unknown>> {
    const question = digestOf({ method, params });
    const base = key ?? `${keyPrefix[method]}-${question.slice(0, 10)}`;
    this.#keys ??= new Set();
    const keys = this.#keys;
    let name = base;
    // The same question asked twice in one run is two questions.
    for (let copy = 2; keys.has(name); copy += 1) name = `${base}-${copy}`;
    keys.add(name);
    this.#answered ??= new Map();
    const answered = this.#answered;
    const remembered = this.#remembered[name];
    if (remembered !== undefined && remembered.question === question) {
      answered.set(name, remembered);
      return Promise.resolve(remembered.response);
    }
    const response = this.#responses[name];
    if (isAnswerTo(method, response)) {
      answered.set(name, { question, response });
      return Promise.resolve(response);
    }
    this.#pending ??= new Map();
    const pending = this.#pending;
    if (pending.size === 0) {
      void this.ended;
      setImmediate(() => this.#end?.(this.#interim()));
    }
    pending.set(name, { method, params });
    return new Promise(() => {});
  }

  #interim(): InputRequiredResult {
    const requestState = this.#seal.seal({
      request: this.#request(),
      principal: this.#principal,
      expiresAt: Date.now() + this.#seal.lifetimeMs,
      answers: Object.fromEntries(this.#answered ?? []),
    });
    return { resultType: 'input_required', inputRequests: Object.fromEntries(this.#pending ?? []), requestState };
  }
}
