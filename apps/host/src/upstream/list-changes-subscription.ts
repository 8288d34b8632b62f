import { UpstreamRpcError } from './upstream-errors.ts';
import type { UpstreamSession } from './upstream-session.ts';

/** The lists a server can announce changes of. */
export type ListKind = 'tools' | 'prompts' | 'resources';

export interface ListChangesHooks {
  /** The list changed, or may have while the stream was down. */
  onChange(list: ListKind): void;
  log(line: string): void;
}

const listOfNotification: Record<string, ListKind> = {
  'notifications/tools/list_changed': 'tools',
  'notifications/prompts/list_changed': 'prompts',
  'notifications/resources/list_changed': 'resources',
};

const firstRetryDelayMs = 1000;
const maxRetryDelayMs = 30_000;
const methodNotFound = -32601;

/**
 * A modern upstream's list changes (tools, prompts, resources), heard on a
 * `subscriptions/listen` stream (the modern era's replacement for the
 * legacy session's list_changed notifications). A stream that ends while
 * the connection lives — an HTTP server restarted, a proxy that cut an idle
 * stream — is opened again after a pause that doubles up to 30 s, and the
 * lists are read again then, since a change may have gone unheard. Stops
 * with the session.
 */
export function subscribeToListChanges(
  session: UpstreamSession,
  lists: readonly ListKind[],
  hooks: ListChangesHooks,
): { stop(): void } {
  const stopped = new AbortController();
  let delay = firstRetryDelayMs;
  let timer: NodeJS.Timeout | undefined;

  const listen = (reopened: boolean) => {
    session
      .request(
        'subscriptions/listen',
        { notifications: Object.fromEntries(lists.map((list) => [`${list}ListChanged`, true])) },
        {
          signal: stopped.signal,
          onNotification: (method, params) => {
            if (method === 'notifications/subscriptions/acknowledged') {
              delay = firstRetryDelayMs;
              const honoured = (params.notifications as { toolsListChanged?: unknown } | undefined)?.toolsListChanged;
              if (honoured !== true) hooks.log('it does not announce tool-list changes; its list is read once');
              if (reopened) for (const list of lists) hooks.onChange(list);
            } else {
              const list = listOfNotification[method];
              if (list !== undefined) hooks.onChange(list);
            }
          },
        },
      )
      .then(
        () => again('the server ended the list-change subscription'),
        (error: unknown) => {
          if (error instanceof UpstreamRpcError && error.code === methodNotFound) {
            hooks.log('it does not offer subscriptions/listen; its lists are read once');
            return;
          }
          again(`the list-change subscription failed: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
  };

  const again = (why: string) => {
    if (stopped.signal.aborted || session.closed) return;
    hooks.log(`${why}; listening again in ${delay} ms`);
    timer = setTimeout(() => listen(true), delay);
    delay = Math.min(maxRetryDelayMs, delay * 2);
  };

  listen(false);
  return {
    stop() {
      stopped.abort();
      clearTimeout(timer);
    },
  };
}
