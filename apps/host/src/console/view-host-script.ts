/**
 * The console's side of MCP Apps, written for the console (the official
 * AppBridge bundles a schema library hundreds of KB large): for each
 * `[data-view-mount]` on a page it creates the sandboxed frame
 * (`allow-scripts` only, so the view is an opaque origin, never the
 * console's), then speaks JSON-RPC over `postMessage` with that frame alone:
 *
 * - `ui/initialize` is answered with the theme, the frame's size limits and
 *   what the console offers; after `ui/notifications/initialized` the view
 *   gets the tool's input and, once there is one, its result;
 * - `ui/notifications/size-changed` sets the frame's height, up to a cap;
 * - `tools/call` is posted to the console (same origin, the session's form
 *   token) and runs as the user's own call, through approvals and the audit;
 * - `ui/message` is shown in the view's log as text; `ui/open-link` offers the
 *   link there, opened only when the user clicks it;
 * - anything else a view asks is refused with "method not found".
 *
 * Served as /assets/view-host.js: the console's policy allows no inline script.
 */
export const viewHostScript = `
'use strict';
(function () {
  var maxHeight = 640, mounts = new Map(), hostInfo = { name: 'toolshed-console', version: '1' };
  var locale = navigator.language, timeZone;
  function zone() {
    if (timeZone === undefined) timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return timeZone;
  }
  var csrfField = document.querySelector('header form input[name="csrf"]');
  var dark = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  function theme() { return dark && dark.matches ? 'dark' : 'light'; }
  function send(mount, message) {
    // The frame is sandboxed without allow-same-origin: its origin is opaque, so no target origin can name it.
    // The console's frame-src keeps the frame on the view listener's origin.
    if (mount.frame.contentWindow) mount.frame.contentWindow.postMessage(Object.assign({ jsonrpc: '2.0' }, message), '*');
  }
  function answer(mount, id, result) { send(mount, { id: id, result: result }); }
  function refuse(mount, id, code, text) { send(mount, { id: id, error: { code: code, message: text } }); }
  function log(mount, className, text) {
    var line = document.createElement('p');
    line.className = className;
    line.textContent = text;
    mount.log.appendChild(line);
    return line;
  }
  function hostContext(mount) {
    return {
      theme: theme(), displayMode: 'inline', availableDisplayModes: ['inline'], platform: 'web',
      containerDimensions: { maxHeight: maxHeight }, locale: locale, timeZone: zone(),
      toolInfo: { tool: { name: mount.tool } }
    };
  }
  function callTool(mount, id, params) {
    if (!params || typeof params.name !== 'string') { refuse(mount, id, -32602, 'tools/call needs a tool name'); return; }
    var note = log(mount, 'view-call', 'The view called ' + params.name + '; if it asks first, it waits on the approvals page.');
    var body = new URLSearchParams();
    body.set('csrf', csrfField ? csrfField.value : '');
    body.set('name', params.name);
    body.set('arguments', JSON.stringify(params.arguments || {}));
    fetch('/views/' + encodeURIComponent(mount.id) + '/call', { method: 'POST', credentials: 'same-origin', body: body })
      .then(function (response) {
        return response.json().catch(function () { return { error: 'The console refused the call (HTTP ' + response.status + ').' }; });
      })
      .then(function (outcome) {
        if (outcome.error !== undefined) { note.textContent = 'The view called ' + params.name + ': ' + outcome.error; refuse(mount, id, -32603, String(outcome.error)); return; }
        note.textContent = 'The view called ' + params.name + (outcome.result && outcome.result.isError ? ': it answered with an error.' : '.');
        answer(mount, id, outcome.result);
      }, function (error) { refuse(mount, id, -32603, 'The console could not be reached: ' + error.message); });
  }
  function offerLink(mount, id, params) {
    var url = params && typeof params.url === 'string' ? params.url : '';
    if (!/^https?:\\/\\//i.test(url)) { refuse(mount, id, -32602, 'Only http and https links are opened'); return; }
    var line = log(mount, 'view-link', 'The view asks to open ' + url + ' ');
    var button = document.createElement('button');
    button.type = 'button';
    button.textContent = 'Open link';
    button.addEventListener('click', function () { window.open(url, '_blank', 'noopener,noreferrer'); });
    line.appendChild(button);
    answer(mount, id, {});
  }
  function showMessage(mount, id, params) {
    var content = params && Array.isArray(params.content) ? params.content : [];
    var text = content.filter(function (block) { return block && block.type === 'text'; })
      .map(function (block) { return String(block.text); }).join('\\n');
    log(mount, 'view-message', 'Message from the view: ' + text);
    answer(mount, id, {});
  }
  function receive(mount, message) {
    var id = message.id, params = message.params;
    switch (message.method) {
      case 'ui/initialize':
        answer(mount, id, {
          protocolVersion: '2026-01-26', hostInfo: hostInfo, hostContext: hostContext(mount),
          hostCapabilities: { openLinks: {}, serverTools: {}, logging: {} }
        });
        return;
      case 'ui/notifications/initialized':
        mount.ready = true;
        send(mount, { method: 'ui/notifications/tool-input', params: { arguments: mount.input } });
        if (mount.result !== undefined) send(mount, { method: 'ui/notifications/tool-result', params: mount.result });
        return;
      case 'ui/notifications/size-changed':
        if (params && typeof params.height === 'number' && params.height > 0) {
          mount.frame.style.height = Math.min(maxHeight, Math.ceil(params.height)) + 'px';
        }
        return;
      case 'tools/call': callTool(mount, id, params); return;
      case 'ui/message': showMessage(mount, id, params); return;
      case 'ui/open-link': offerLink(mount, id, params); return;
      case 'ui/update-model-context': answer(mount, id, {}); return;
      case 'ui/request-display-mode': answer(mount, id, { mode: 'inline' }); return;
      case 'ping': answer(mount, id, {}); return;
    }
    if (id !== undefined && id !== null) refuse(mount, id, -32601, 'Method not found: ' + message.method);
  }
  window.addEventListener('message', function (event) {
    var mount = mounts.get(event.source);
    var message = event.data;
    if (!mount || !message || message.jsonrpc !== '2.0' || typeof message.method !== 'string') return;
    receive(mount, message);
  });
  function parse(text) { try { return text === undefined ? undefined : JSON.parse(text); } catch (error) { return undefined; } }
  function mountView(section) {
    if (section.getAttribute('data-view-started') !== null) return;
    section.setAttribute('data-view-started', '');
    performance.mark('view-mount');
    var frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('referrerpolicy', 'no-referrer');
    frame.title = 'View of ' + section.dataset.viewTool;
    frame.className = 'view-frame';
    var log = section.querySelector('.view-log');
    section.insertBefore(frame, log);
    var mount = {
      id: section.dataset.viewMount, tool: section.dataset.viewTool, frame: frame, log: log, ready: false,
      input: undefined, result: undefined
    };
    mounts.set(frame.contentWindow, mount);
    // The frame starts loading now; the view's first message comes in a later task, after the input and the
    // result (a large result takes a while to parse) are read below, so the parse overlaps the frame's start.
    frame.src = section.dataset.viewSrc;
    mount.input = parse(section.dataset.viewInput) || {};
    mount.result = parse(section.dataset.viewResult);
  }
  function mountAll() {
    mounts.forEach(function (mount, source) { if (!mount.frame.isConnected) mounts.delete(source); });
    document.querySelectorAll('[data-view-mount]').forEach(mountView);
  }
  mountAll();
  // A page's first Intl call loads the time zone data: 45–115 ms of this page's main thread in Chromium on a busy
  // machine. Made once the frames have started, it overlaps their start instead of delaying the answer to the
  // first ui/initialize, which comes in a later task; a page without views never makes it.
  if (mounts.size > 0) zone();
  // The approvals list redraws itself: new cards bring new views.
  new MutationObserver(mountAll).observe(document.body, { childList: true, subtree: true });
  if (dark) dark.addEventListener('change', function () {
    mounts.forEach(function (mount) {
      if (mount.ready && mount.frame.isConnected) send(mount, { method: 'ui/notifications/host-context-changed', params: { theme: theme() } });
    });
  });
})();
`;
