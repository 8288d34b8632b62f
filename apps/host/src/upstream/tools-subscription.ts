import { UpstreamRpcError } from './upstream-errors.ts';
import type { UpstreamSession } from './upstream-session.ts';

export interface ToolsSubscriptionHooks {
  /** The tool list changed, or may have while the stream was down. */
  onChange(): void;
  log(line: string): void;
}

const firstRetryDelayMs = 1000;
const maxRetryDelayMs = 30_000;
const methodNotFound = -32601;

/**
 * A modern upstream's tool-list changes, heard on a `subscriptions/listen`
 * stream (the modern era's replacement for the legacy session's
 * list_changed notifications). A stream that ends while the connection
 * lives — an HTTP server restarted, a proxy that cut an idle stream — is
 * opened again after a pause that doubles up to 30 s, and the list is read
 * again then, since a change may have gone unheard. Stops with the session.
 */
export function subscribeToToolChanges(session: UpstreamSession, hooks: ToolsSubscriptionHooks): { stop(): void } {
  const stopped = new AbortController();
  let delay = firstRetryDelayMs;
  let timer: NodeJS.Timeout | undefined;

  const listen = (reopened: boolean) => {
    session
      .request(
        'subscriptions/listen',
        { notifications: { toolsListChanged: true } },
        {
          signal: stopped.signal,
          onNotification: (method, params) => {
            if (method === 'notifications/subscriptions/acknowledged') {
              delay = firstRetryDelayMs;
              const honoured = (params.notifications as { toolsListChanged?: unknown } | undefined)?.toolsListChanged;
              if (honoured !== true) hooks.log('it does not announce tool-list changes; its list is read once');
              if (reopened) hooks.onChange();
            } else if (method === 'notifications/tools/list_changed') {
              hooks.onChange();
            }
          },
        },
      )
      .then(
        () => again('the server ended the tool-list subscription'),
        (error: unknown) => {
          if (error instanceof UpstreamRpcError && error.code === methodNotFound) {
            hooks.log('it does not offer subscriptions/listen; its tool list is read once');
            return;
          }
          again(`the tool-list subscription failed: ${error instanceof Error ? error.message : String(error)}`);
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
