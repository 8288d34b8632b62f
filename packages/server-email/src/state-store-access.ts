import type { StateStore } from '@toolshed/state';
import { printableStateLocation, withoutPassword } from './state-location.ts';

/** The state store a server records its sends in, opened when a send first needs it. */
export interface StateStoreAccess {
  /**
   * The store. When it cannot be opened, rejects with one line naming it
   * (never its password), and the next call tries again: it may be back by then.
   */
  open(): Promise<StateStore>;
  /** A store's failure as one clause a person can act on, without the password. */
  explain(error: unknown, store: StateStore): string;
  /** Closes the store if this server opened it: a store given to the server is closed by whoever gave it. */
  close(): Promise<void>;
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
}

/**
 * The store given to the server, or the one its `state` option names (the
 * embedded default file without one), opened on first use: the state
 * package and its database driver load then, not when the bin starts, and a
 * server that never sends never opens it.
 */
export function stateStoreAccess(location: string | undefined, given: StateStore | undefined): StateStoreAccess {
  const redact = (text: string) => (location === undefined ? text : withoutPassword(text, location));
  const explain = (error: unknown, store: StateStore) =>
    `the state store at ${store.location} did not answer (${redact(messageOf(error))})`;
  if (given !== undefined) return { open: async () => given, explain, close: async () => {} };
  const where = location === undefined ? 'the default state file' : printableStateLocation(location);
  let opening: Promise<StateStore> | undefined;
  let closed = false;
  const openStore = async (): Promise<StateStore> => {
    const state = await import('@toolshed/state');
    try {
      return await state.openStateStore({ location });
    } catch (error) {
      const problem = state.StateStoreError.isInstance(error)
        ? messageOf(error)
        : `the state store at ${where} cannot be used: ${messageOf(error)}`;
      throw new Error(redact(problem), { cause: error });
    }
  };
  return {
    open() {
      if (closed) return Promise.reject(new Error('the email server is closed'));
      if (opening === undefined) {
        const attempt = openStore();
        opening = attempt;
        attempt.catch(() => {
          if (opening === attempt) opening = undefined;
        });
      }
      return opening;
    },
    explain,
    async close() {
      closed = true;
      const store = await opening?.catch(() => undefined);
      await store?.close();
    },
  };
}
