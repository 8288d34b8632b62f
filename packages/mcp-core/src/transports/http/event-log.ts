/** One stored event of a stream: its sequence number in that stream and its JSON text. */
export interface StoredEvent {
  readonly seq: number;
  readonly data: string;
}

/**
 * The recent events of one SSE stream, kept so that a client that lost the
 * connection can resume with Last-Event-ID. Bounded: past the cap the
 * oldest events go, and a resume from before them is refused rather than
 * silently skipping messages.
 */
export class EventLog {
  readonly #events: StoredEvent[] = [];
  readonly #cap: number;
  #nextSeq = 1;

  constructor(cap: number) {
    this.#cap = cap;
  }

  append(data: string): StoredEvent {
    const event = { seq: this.#nextSeq++, data };
    this.#events.push(event);
    if (this.#events.length > this.#cap) this.#events.shift();
    return event;
  }

  /** Events after `seq`, or undefined when some of them were already dropped. */
  after(seq: number): StoredEvent[] | undefined {
    const first = this.#events[0];
    if (first !== undefined && first.seq > seq + 1) return undefined;
    if (first === undefined && seq + 1 < this.#nextSeq) return undefined;
    return this.#events.filter((event) => event.seq > seq);
  }
}
