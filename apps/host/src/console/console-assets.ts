/**
 * The console's only stylesheet and script, shipped inside the package and
 * served from the console's own origin: nothing is loaded from elsewhere,
 * and the Content-Security-Policy allows nothing else.
 */
export const consoleStylesheet = `
:root { color-scheme: light dark; --accent: #2f6feb; --danger: #c62828; --ok: #2e7d32; --muted: #6b7280; --line: #d0d7de; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; }
header { display: flex; gap: 1.5rem; align-items: center; padding: .6rem 1.2rem; border-bottom: 1px solid var(--line); }
header strong { font-size: 1.05rem; }
nav { display: flex; gap: 1rem; flex-wrap: wrap; }
nav a { text-decoration: none; color: inherit; padding: .2rem .1rem; }
nav a[aria-current="page"] { border-bottom: 2px solid var(--accent); font-weight: 600; }
header form { margin-left: auto; }
main { padding: 1rem 1.2rem 3rem; max-width: 80rem; }
h1 { font-size: 1.35rem; margin: .2rem 0 1rem; }
h2 { font-size: 1.1rem; margin: 1.4rem 0 .5rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
pre { background: rgba(127,127,127,.12); padding: .6rem; overflow: auto; max-height: 28rem; white-space: pre-wrap; word-break: break-word; margin: .3rem 0; }
code { font-size: .92em; }
fieldset { border: 1px solid var(--line); margin: .5rem 0; padding: .5rem .8rem; }
legend { font-weight: 600; }
label { display: block; margin: .5rem 0 .15rem; font-weight: 500; }
.hint { color: var(--muted); font-size: .88em; margin: 0 0 .3rem; }
input[type=text], input[type=number], input[type=password], input[type=datetime-local], select, textarea { font: inherit; padding: .3rem .4rem; min-width: 16rem; max-width: 100%; }
form.try-it input[type=text] { width: min(40rem, 100%); }
textarea { width: 100%; min-height: 4.5rem; font-family: ui-monospace, monospace; }
button { font: inherit; padding: .3rem .8rem; cursor: pointer; }
button.primary { background: var(--accent); color: #fff; border: 1px solid var(--accent); }
button.danger { background: var(--danger); color: #fff; border: 1px solid var(--danger); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.badge { display: inline-block; padding: 0 .45rem; border-radius: .6rem; font-size: .82em; border: 1px solid var(--line); margin: 0 .2rem .2rem 0; }
.state-up, .outcome-ok { color: var(--ok); font-weight: 600; }
.state-down, .state-failed, .outcome-error, .outcome-refused, .outcome-timeout, .outcome-tool_error { color: var(--danger); font-weight: 600; }
.notice { padding: .6rem .8rem; border-left: 4px solid var(--accent); background: rgba(47,111,235,.08); margin: .5rem 0 1rem; }
.notice.error { border-color: var(--danger); background: rgba(198,40,40,.08); }
.approval { border: 1px solid var(--line); padding: .6rem .9rem; margin: .6rem 0; }
.approval form { display: inline-block; margin-right: .6rem; }
.filters { display: flex; flex-wrap: wrap; gap: .3rem 1rem; align-items: end; }
.filters label { margin: 0; }
.pages { display: flex; gap: 1rem; align-items: center; }
.result-image { max-width: 100%; border: 1px solid var(--line); }
.view { margin: .5rem 0 1rem; }
.view-frame { display: block; width: 100%; height: 160px; border: 1px solid var(--line); background: transparent; }
.view-log:empty { display: none; }
.view-log { border-left: 4px solid var(--line); padding: .2rem .8rem; margin: .4rem 0; }
.view-log p { margin: .3rem 0; white-space: pre-wrap; }
.secret { font-size: 1.05rem; user-select: all; }
.login { max-width: 28rem; margin: 4rem auto; }
`;

/**
 * Live updates for the approvals page: the server announces changes on an
 * event stream and the list is fetched again; without this script the page
 * still works (reload it). Focus stays where it was when the list is the same.
 */
export const consoleScript = `
'use strict';
(function () {
  var list = document.querySelector('[data-live-approvals]');
  if (!list || typeof EventSource === 'undefined') return;
  var source = new EventSource('/approvals/events');
  // Compared with what the server sent last, not with the list as it is now: the view host adds frames to it.
  var shown = list.innerHTML;
  function refresh() {
    fetch('/approvals/list', { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (text) {
        if (text === null || text === shown) return;
        shown = text;
        list.innerHTML = text;
        list.setAttribute('data-updated', String(Date.now()));
      })
      .catch(function () {});
  }
  source.addEventListener('changed', refresh);
  // Changes made between the page's load and the stream's opening are caught here (and after a reconnect).
  source.addEventListener('open', refresh);
  window.addEventListener('pagehide', function () { source.close(); });
})();
`;
