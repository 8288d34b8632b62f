/// <reference lib="dom" />
/**
 * A reference host for views, bundled for the browser by the Chromium tests:
 * the official AppBridge from `@modelcontextprotocol/ext-apps` renders a view
 * in a sandboxed frame, hands it a tool's input and result, answers its
 * `tools/call` through `hostCallTool` (a function the test exposes, which
 * calls the real server) and records what the view sends.
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

interface MountInput {
  html: string;
  toolInput: Record<string, unknown>;
  toolResult: Record<string, unknown>;
}

interface HostWindow {
  hostCallTool(params: unknown): Promise<Record<string, unknown>>;
  hostEvents: { type: string; params: unknown }[];
  mountView(input: MountInput): Promise<void>;
}

const host = window as unknown as Window & HostWindow;
host.hostEvents = [];

host.mountView = async ({ html, toolInput, toolResult }) => {
  // Where the view benches start the host's mount to rows.
  performance.mark('view-mount');
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.style.cssText = 'width:720px;height:200px;border:0';
  frame.srcdoc = html;
  document.body.append(frame);
  const record = (type: string, params: unknown) => host.hostEvents.push({ type, params });
  const bridge = new AppBridge(
    null,
    { name: 'reference-host', version: '1.0.0' },
    { serverTools: {}, updateModelContext: { text: {}, structuredContent: {} } },
    {
      hostContext: {
        theme: 'dark',
        styles: { variables: { '--color-background-primary': 'rgb(16, 20, 24)' } as never },
      },
    },
  );
  bridge.oncalltool = async (params) => {
    record('tools/call', params);
    return (await host.hostCallTool(params)) as never;
  };
  bridge.onupdatemodelcontext = async (params) => {
    record('update-model-context', params);
    return {};
  };
  bridge.onsizechange = (size) => {
    record('size-changed', size);
    if (size.height !== undefined) frame.style.height = `${size.height}px`;
  };
  bridge.oninitialized = () => {
    record('initialized', {});
    void bridge.sendToolInput({ arguments: toolInput }).then(() => bridge.sendToolResult(toolResult as never));
  };
  const view = frame.contentWindow as Window;
  await bridge.connect(new PostMessageTransport(view, view));
};
