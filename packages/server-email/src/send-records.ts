import { ToolError } from '@toolshed/mcp-core';
import type { IdempotencyClaim, IdempotencyRecord, StateStore } from '@toolshed/state';
import type { SendResult } from './send-result.ts';
import type { StateStoreAccess } from './state-store-access.ts';

/** How long a key, and the doubt about a message, is kept. */
const keptForMs = 24 * 60 * 60 * 1000;

/** How long a call waits for a send of the same key or message, running elsewhere, to end. */
const waitForSendMs = 15_000;

/** What a send of unknown outcome leaves for the retries of its key: what to look for, and why it is in doubt. */
export interface UncertainNote {
  message_id: string;
  reason: string;
  outbox_file?: string | undefined;
}

/** Where an idempotency key stands for one message, as a call sees it. */
export type KeyStanding =
  | { kind: 'free' }
  | { kind: 'claimed' }
  | { kind: 'conflict' }
  | { kind: 'sent'; result: SendResult }
  /** The note is missing when the process sending it stopped before it could write one. */
  | { kind: 'uncertain'; note: UncertainNote | undefined }
  | { kind: 'sending' };

/** Whether a send of this same message is in doubt or under way. */
export type MessageStanding =
  | { kind: 'free' }
  | { kind: 'claimed' }
  | { kind: 'uncertain'; messageId: string | undefined }
  | { kind: 'sending' };

export type KeyEnding =
  | { state: 'sent'; result: SendResult }
  | { state: 'uncertain'; note: UncertainNote }
  | { state: 'failed'; reason: string };

/**
 * What send_email keeps in the state store, so that it holds for every
 * replica sharing the store and across restarts: each idempotency key with
 * how its send ended, and, by the message's fingerprint, whether a send of
 * that same message is under way or ended in doubt (which refuses a retry
 * without a key). Both are claimed before the message is handed over, so a
 * process killed mid-send leaves them `sending`, and the store's sweep turns
 * them `uncertain`: never sent again by a retry.
 */
export interface SendRecords {
  /** What the key holds for this message, before the user is asked; waits a while for a send under way elsewhere. */
  lookUpKey(key: string, fingerprint: string, signal: AbortSignal): Promise<KeyStanding>;
  /** Claims the key for this send, once the user said yes; `claimed` unless another send holds it. */
  claimKey(key: string, fingerprint: string, signal: AbortSignal): Promise<KeyStanding>;
  /** Records how the claimed send ended. Never throws: a key left `sending` turns `uncertain` when this process ends. */
  settleKey(key: string, ending: KeyEnding): Promise<void>;
  lookUpMessage(fingerprint: string, signal: AbortSignal): Promise<MessageStanding>;
  /** Claims the message's record for this send; `keyed` sends do not wait for another send of it. */
  claimMessage(fingerprint: string, keyed: boolean, signal: AbortSignal): Promise<MessageStanding>;
  /** Records whether the send ended in doubt; never throws. */
  settleMessage(fingerprint: string, claimed: boolean, uncertainMessageId: string | undefined): Promise<void>;
}

function keyStanding(record: IdempotencyRecord | undefined, fingerprint: string): KeyStanding {
  if (record === undefined) return { kind: 'free' };
  // The store answers a claim lost to a row that vanished in between with an empty fingerprint: another send holds it.
  if (record.state === 'sending' && record.fingerprint === '') return { kind: 'sending' };
  if (record.fingerprint !== fingerprint) return { kind: 'conflict' };
  switch (record.state) {
    case 'sending':
      return { kind: 'sending' };
    case 'sent':
      return { kind: 'sent', result: record.outcome as SendResult };
    case 'uncertain': {
      const note = record.outcome as Partial<UncertainNote> | undefined;
      return { kind: 'uncertain', note: typeof note?.message_id === 'string' ? (note as UncertainNote) : undefined };
    }
    case 'failed':
      return { kind: 'free' };
  }
}

function messageStanding(record: IdempotencyRecord | undefined): MessageStanding {
  if (record?.state === 'sending') return { kind: 'sending' };
  if (record?.state !== 'uncertain') return { kind: 'free' };
  const messageId = (record.outcome as { message_id?: unknown } | undefined)?.message_id;
  return { kind: 'uncertain', messageId: typeof messageId === 'string' ? messageId : undefined };
}

function unavailable(problem: string): ToolError {
  return new ToolError(
    `Not sent: ${problem}; no email is sent without its record there, so try again once the store answers, or ask the operator to check --state.`,
  );
}

/**
 * The records of one email server, in scopes named by its sender's address,
 * so that differently configured servers sharing a store keep apart.
 */
export function createSendRecords(access: StateStoreAccess, sender: string): SendRecords {
  const keyScope = `email:${sender}`;
  // In this scope `failed` means that no send of the message is in doubt any more: the one state a later send may claim.
  const messageScope = `email-uncertain:${sender}`;

  async function use<Result>(work: (store: StateStore) => Promise<Result>): Promise<Result> {
    let store: StateStore;
    try {
      store = await access.open();
    } catch (error) {
      throw unavailable((error as Error).message);
    }
    try {
      return await work(store);
    } catch (error) {
      throw unavailable(access.explain(error, store));
    }
  }

  const recall = (scope: string, key: string) => use((store) => store.idempotency.recall(scope, key, Date.now()));
  const claim = (scope: string, key: string, fingerprint: string): Promise<IdempotencyClaim> =>
    use((store) => {
      const now = Date.now();
      return store.idempotency.claim(scope, key, fingerprint, now + keptForMs, now);
    });
  const settle = async (scope: string, key: string, state: 'sent' | 'uncertain' | 'failed', outcome: unknown) => {
    await use((store) => store.idempotency.settle(scope, key, state, outcome)).catch(() => undefined);
  };

  /** The record once no send holds it any more, or as it is when the wait is over. */
  async function ended(scope: string, key: string, deadline: number, signal: AbortSignal) {
    const { setTimeout: delay } = process.getBuiltinModule('node:timers/promises');
    let pause = 25;
    for (;;) {
      const record = await recall(scope, key);
      const left = deadline - Date.now();
      if (record?.state !== 'sending' || left <= 0) return record;
      await delay(Math.min(pause, left), undefined, { signal });
      pause = Math.min(pause * 2, 500);
    }
  }

  return {
    async lookUpKey(key, fingerprint, signal) {
      const standing = keyStanding(await recall(keyScope, key), fingerprint);
      if (standing.kind !== 'sending') return standing;
      return keyStanding(await ended(keyScope, key, Date.now() + waitForSendMs, signal), fingerprint);
    },
    async claimKey(key, fingerprint, signal) {
      const deadline = Date.now() + waitForSendMs;
      for (;;) {
        const claimed = await claim(keyScope, key, fingerprint);
        if (claimed.kind === 'claimed') return { kind: 'claimed' };
        const standing = keyStanding(claimed.record, fingerprint);
        if (standing.kind !== 'sending' || Date.now() >= deadline) return standing;
        const after = keyStanding(await ended(keyScope, key, deadline, signal), fingerprint);
        // The other send failed for sure: the key is free again, and this send claims it.
        if (after.kind !== 'free') return after;
      }
    },
    async settleKey(key, ending) {
      const { state, ...outcome } = ending;
      await settle(
        keyScope,
        key,
        state,
        'result' in outcome ? outcome.result : 'note' in outcome ? outcome.note : outcome,
      );
    },
    async lookUpMessage(fingerprint, signal) {
      const standing = messageStanding(await recall(messageScope, fingerprint));
      if (standing.kind !== 'sending') return standing;
      return messageStanding(await ended(messageScope, fingerprint, Date.now() + waitForSendMs, signal));
    },
    async claimMessage(fingerprint, keyed, signal) {
      const deadline = Date.now() + waitForSendMs;
      for (;;) {
        const claimed = await claim(messageScope, fingerprint, fingerprint);
        if (claimed.kind === 'claimed') return { kind: 'claimed' };
        const standing = messageStanding(claimed.record);
        if (keyed || standing.kind !== 'sending' || Date.now() >= deadline) return standing;
        const after = messageStanding(await ended(messageScope, fingerprint, deadline, signal));
        if (after.kind !== 'free') return after;
      }
    },
    async settleMessage(fingerprint, claimed, uncertainMessageId) {
      if (uncertainMessageId === undefined) {
        if (claimed) await settle(messageScope, fingerprint, 'failed', undefined);
        return;
      }
      // A keyed send that found the record held by another send still marks the message as in doubt when it can.
      const owned =
        claimed ||
        (await claim(messageScope, fingerprint, fingerprint).then(
          (result) => result.kind === 'claimed',
          () => false,
        ));
      if (owned) await settle(messageScope, fingerprint, 'uncertain', { message_id: uncertainMessageId });
    },
  };
}
