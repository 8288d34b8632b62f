import type { Host } from '../create-host.ts';
import type { PendingApproval } from './approval-broker.ts';
import type { ConsoleCall, ConsoleCalls } from './console-calls.ts';
import type { SafeHtml } from './html.ts';
import { mountToolView } from './tool-view-mount.ts';
import { findTool } from './try-it-page.ts';
import { listenForViews } from './view-listener.ts';
import { ViewMounts } from './view-mounts.ts';
import { viewPanel } from './view-panel.ts';

export interface ConsoleViewsOptions {
  host: Host;
  calls: ConsoleCalls;
  listenHost: string;
  checkHost(host: string | undefined): string | undefined;
}

/** The console's origin as a request reached it, and the view listener's on the same host name. */
export interface ConsoleOrigins {
  console: string;
  view: string;
}

/** What the console answers a view's tool call with: a JSON body and its status. */
export interface ViewCallAnswer {
  status: number;
  body: { result: unknown } | { error: string };
}

export interface ConsoleViews {
  originsOf(hostHeader: string): ConsoleOrigins;
  ofCall(call: ConsoleCall, origins: ConsoleOrigins): Promise<SafeHtml | undefined>;
  ofApprovals(
    pending: readonly PendingApproval[],
    user: string,
    origins: ConsoleOrigins,
  ): Promise<Map<string, SafeHtml>>;
  call(mountId: string, user: string, form: URLSearchParams): Promise<ViewCallAnswer>;
  close(): Promise<void>;
}

/**
 * The views a console shows, in one place: the listener that serves them
 * from another port, the mounts of the pages that show them, their panels
 * on a try-it result and on approval cards, and the tool calls views make.
 */
export async function startConsoleViews(options: ConsoleViewsOptions): Promise<ConsoleViews> {
  const { host, calls } = options;
  const mounts = new ViewMounts();
  const listener = await listenForViews({ mounts, listenHost: options.listenHost, checkHost: options.checkHost });

  return {
    originsOf(hostHeader: string): ConsoleOrigins {
      return {
        console: `http://${hostHeader.toLowerCase()}`,
        view: `http://${new URL(`http://${hostHeader}`).hostname}:${listener.port}`,
      };
    },

    /** The view of a finished try-it call's tool, or undefined. */
    async ofCall(call: ConsoleCall, origins: ConsoleOrigins): Promise<SafeHtml | undefined> {
      if (call.state !== 'done') return undefined;
      const mount = await mountToolView({
        host,
        calls,
        mounts,
        user: call.user,
        tool: call.tool,
        toolInput: call.arguments,
        toolResult: call.result,
        consoleOrigin: origins.console,
        key: `call:${call.id}`,
      });
      return mount === undefined ? undefined : viewPanel(mount, origins.view);
    },

    /** The views of the waiting calls' tools, shown with their arguments (no result yet), by approval id. */
    async ofApprovals(
      pending: readonly PendingApproval[],
      user: string,
      origins: ConsoleOrigins,
    ): Promise<Map<string, SafeHtml>> {
      const panels = new Map<string, SafeHtml>();
      for (const approval of pending) {
        const mount = await mountToolView({
          host,
          calls,
          mounts,
          user,
          tool: approval.tool,
          toolInput: approval.arguments,
          consoleOrigin: origins.console,
          key: `approval:${approval.id}`,
        });
        if (mount !== undefined) panels.set(approval.id, viewPanel(mount, origins.view));
      }
      return panels;
    },

    /** A view's `tools/call`, posted by the console's view host: run as `user`'s own call, its own server's tools only. */
    async call(mountId: string, user: string, form: URLSearchParams): Promise<ViewCallAnswer> {
      const mount = mounts.forUser(mountId, user);
      if (mount === undefined)
        return { status: 404, body: { error: 'This view is no longer mounted: reload the page.' } };
      const name = form.get('name') ?? '';
      // A view calls the tools of its own server only, as every host of MCP Apps limits it.
      if (findTool(host, name)?.row.server !== mount.server) {
        return { status: 403, body: { error: `The view of ${mount.tool} may call only the tools of its own server.` } };
      }
      let args: unknown;
      try {
        args = JSON.parse(form.get('arguments') ?? '{}');
      } catch {
        return { status: 400, body: { error: 'The arguments are not JSON.' } };
      }
      if (typeof args !== 'object' || args === null || Array.isArray(args)) {
        return { status: 400, body: { error: 'The arguments must be a JSON object.' } };
      }
      try {
        return { status: 200, body: { result: await calls.callFromView(user, name, args as Record<string, unknown>) } };
      } catch (error) {
        return { status: 200, body: { error: error instanceof Error ? error.message : String(error) } };
      }
    },

    close: (): Promise<void> => listener.close(),
  };
}
