import type { ServerCore, ServerEvent } from '../engine/server-core.ts';
import { invalidParams } from '../errors/common-protocol-errors.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import type { JsonRpcId, JsonRpcNotification, JsonRpcParams } from '../messages/jsonrpc-message.ts';
import { MetaKey } from '../protocol/meta-keys.ts';

/** The notification types a `subscriptions/listen` stream can opt in to. */
export interface ListenFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
  /** The tasks extension: `notifications/tasks` for these tasks of the caller's. */
  taskIds?: string[];
}

/** Another source of a stream's notifications (task changes): starts sending, returns how to stop. */
export type ExtraNotifications = (send: (notification: JsonRpcNotification) => void) => () => void;

/** A bound on one stream's URIs: a client cannot grow the filter without limit. */
const maxResourceSubscriptions = 10_000;

/** The part of the requested filter this server can honour; what it cannot is left out, as the spec says. */
export function agreeFilter(core: ServerCore, params: JsonRpcParams): ListenFilter {
  const requested = params.notifications;
  if (requested !== undefined && !isPlainObject(requested)) {
    throw invalidParams('Invalid params: notifications must be an object such as {"toolsListChanged": true}');
  }
  const wanted = requested ?? {};
  const capabilities = core.capabilities();
  const agreed: ListenFilter = {};
  if (wanted.toolsListChanged === true) agreed.toolsListChanged = true;
  if (wanted.promptsListChanged === true && capabilities.prompts?.listChanged === true)
    agreed.promptsListChanged = true;
  if (wanted.resourcesListChanged === true && capabilities.resources?.listChanged === true) {
    agreed.resourcesListChanged = true;
  }
  const uris = wanted.resourceSubscriptions;
  if (uris !== undefined) {
    if (!Array.isArray(uris) || !uris.every((uri) => typeof uri === 'string')) {
      throw invalidParams('Invalid params: notifications.resourceSubscriptions must be an array of URIs');
    }
    if (uris.length > maxResourceSubscriptions) {
      throw invalidParams(`Invalid params: at most ${maxResourceSubscriptions} resourceSubscriptions per stream`);
    }
    if (capabilities.resources?.subscribe === true) agreed.resourceSubscriptions = [...new Set(uris)];
  }
  return agreed;
}

function wants(filter: ListenFilter, event: ServerEvent): boolean {
  if (event.type === 'resource_updated') return filter.resourceSubscriptions?.includes(event.uri) === true;
  if (event.list === 'tools') return filter.toolsListChanged === true;
  if (event.list === 'prompts') return filter.promptsListChanged === true;
  return filter.resourcesListChanged === true;
}

/**
 * Serves one `subscriptions/listen` request: the acknowledgement first, then
 * every change the filter asked for, each tagged with the subscription id (the
 * request's id), until the client goes away or the server ends the stream.
 * Resolves `true` when the server ended it (a graceful closing result is due).
 */
export function serveSubscription(
  core: ServerCore,
  id: JsonRpcId,
  filter: ListenFilter,
  notify: (notification: JsonRpcNotification) => void,
  clientGone: AbortSignal,
  serverClosing: readonly AbortSignal[],
  extra?: ExtraNotifications,
): Promise<boolean> {
  const tag = { [MetaKey.subscriptionId]: id };
  notify({
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { _meta: tag, notifications: filter },
  });
  const queued = new Set<string>();
  const unsubscribe = core.subscribe((event) => {
    if (!wants(filter, event)) return;
    if (event.type === 'resource_updated') {
      notify({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { _meta: tag, uri: event.uri } });
      return;
    }
    const method = `notifications/${event.list}/list_changed`;
    if (queued.has(method)) return;
    queued.add(method);
    // Coalesce a burst of registrations into one notification per list.
    queueMicrotask(() => {
      queued.delete(method);
      if (!clientGone.aborted) notify({ jsonrpc: '2.0', method, params: { _meta: tag } });
    });
  });
  const stopExtra = extra?.((notification) => {
    if (!clientGone.aborted) notify({ ...notification, params: { ...notification.params, _meta: tag } });
  });
  return new Promise((resolve) => {
    // Plain listeners rather than AbortSignal.any, whose combined signal nothing here would keep alive.
    const finish = (byServer: boolean) => {
      unsubscribe();
      stopExtra?.();
      clientGone.removeEventListener('abort', onClientGone);
      for (const signal of serverClosing) signal.removeEventListener('abort', onServerClosing);
      resolve(byServer);
    };
    const onClientGone = () => finish(false);
    const onServerClosing = () => finish(true);
    if (clientGone.aborted) return finish(false);
    if (serverClosing.some((signal) => signal.aborted)) return finish(true);
    clientGone.addEventListener('abort', onClientGone, { once: true });
    for (const signal of serverClosing) signal.addEventListener('abort', onServerClosing, { once: true });
  });
}
