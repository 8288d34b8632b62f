/**
 * The script every view starts with: the view's side of MCP Apps over
 * `postMessage` to the host frame, hand-written to stay a few KB (the
 * official view SDK bundles a schema library and is hundreds of KB; some
 * hosts cap a view's size). It defines one global, `mcpView`:
 *
 * - `mcpView.start({ name, version, onInput, onResult })` sends
 *   `ui/initialize`, applies the host's theme and CSS variables, sends
 *   `ui/notifications/initialized`, then hands tool input and tool results to
 *   the callbacks and reports the document's size as it changes;
 * - `mcpView.callTool(name, arguments)` calls a tool of the view's server
 *   (app-only tools included) by the name its server gave, and resolves its
 *   result; a host that renames tools (a gateway that prefixes them) lists
 *   the names it uses in `<meta name="mcp-view-tool-names" content="{…}">`;
 * - `mcpView.updateModelContext(params)` replaces what the view tells the
 *   model (`ui/update-model-context`).
 *
 * Messages are taken only from the parent frame; requests time out after 30 s.
 * Each step of the handshake leaves a `performance` mark in the view's own
 * timeline (`mcp-view:initialize` sent, `mcp-view:initialized` answered,
 * `mcp-view:tool-input`, `mcp-view:tool-result`), so a bench or a browser's
 * profiler shows where the time from the frame's start to the first rows goes.
 */
export const viewRuntimeScript = `"use strict";
var mcpView = (function () {
  var host = window.parent, nextId = 1, pending = new Map(), handlers = {}, lastSize = "", toolNames = {};
  try {
    var namesTag = document.querySelector('meta[name="mcp-view-tool-names"]');
    if (namesTag) toolNames = JSON.parse(namesTag.content) || {};
  } catch (error) { toolNames = {}; }
  function toolName(name) { return Object.prototype.hasOwnProperty.call(toolNames, name) ? toolNames[name] : name; }
  function post(message) { host.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*"); }
  function request(method, params) {
    var id = nextId++;
    post({ id: id, method: method, params: params || {} });
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () { pending.delete(id); reject(new Error(method + " timed out")); }, 30000);
      pending.set(id, { resolve: resolve, reject: reject, timer: timer });
    });
  }
  function notify(method, params) { post({ method: method, params: params || {} }); }
  function applyContext(context) {
    if (!context) return;
    var root = document.documentElement;
    if (context.theme === "light" || context.theme === "dark") {
      root.dataset.theme = context.theme;
      root.style.colorScheme = context.theme;
    }
    var variables = context.styles && context.styles.variables;
    if (variables) for (var name in variables) {
      if (name.indexOf("--") === 0 && typeof variables[name] === "string") root.style.setProperty(name, variables[name]);
    }
  }
  function reportSize() {
    var root = document.documentElement;
    var width = Math.ceil(root.scrollWidth), height = Math.ceil(root.scrollHeight), size = width + "x" + height;
    if (size === lastSize) return;
    lastSize = size;
    notify("ui/notifications/size-changed", { width: width, height: height });
  }
  window.addEventListener("message", function (event) {
    if (event.source !== host) return;
    var message = event.data;
    if (!message || message.jsonrpc !== "2.0") return;
    if (message.method === undefined) {
      var waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      clearTimeout(waiting.timer);
      if (message.error) waiting.reject(new Error(message.error.message));
      else waiting.resolve(message.result);
      return;
    }
    if (message.method === "ui/notifications/host-context-changed") applyContext(message.params);
    var handler = handlers[message.method];
    if (handler) handler(message.params || {});
    if (message.id !== undefined) post({ id: message.id, result: {} });
  });
  return {
    start: function (options) {
      handlers["ui/notifications/tool-input"] = function (params) {
        performance.mark("mcp-view:tool-input");
        if (options.onInput) options.onInput(params.arguments || {});
      };
      handlers["ui/notifications/tool-result"] = function (params) {
        performance.mark("mcp-view:tool-result");
        if (options.onResult) options.onResult(params);
      };
      performance.mark("mcp-view:initialize");
      return request("ui/initialize", {
        appInfo: { name: options.name, version: options.version || "1.0.0" },
        appCapabilities: {},
        protocolVersion: "2026-01-26"
      }).then(function (result) {
        performance.mark("mcp-view:initialized");
        applyContext(result && result.hostContext);
        notify("ui/notifications/initialized");
        // The observer reports the first size itself, after the next layout; measuring here would force a layout
        // just when the host is sending the tool's input and result.
        if (typeof ResizeObserver === "function") new ResizeObserver(reportSize).observe(document.documentElement);
        else reportSize();
        return result;
      });
    },
    callTool: function (name, args) { return request("tools/call", { name: toolName(name), arguments: args }); },
    updateModelContext: function (params) { return request("ui/update-model-context", params); },
    reportSize: reportSize
  };
})();
`;
