import { html, type SafeHtml } from './html.ts';

export type ConsolePageName = 'servers' | 'try' | 'approvals' | 'audit' | 'tokens';

const pages: readonly [ConsolePageName, string, string][] = [
  ['servers', '/servers', 'Servers'],
  ['try', '/try', 'Try it'],
  ['approvals', '/approvals', 'Approvals'],
  ['audit', '/audit', 'Audit'],
  ['tokens', '/tokens', 'Tokens'],
];

export interface LayoutOptions {
  title: string;
  /** The page the navigation marks as current; none on the login page. */
  current?: ConsolePageName | undefined;
  /** The logged-in user and the session's form token, for the logout form. */
  session?: { user: string; csrf: string } | undefined;
  body: SafeHtml;
  /** Extra tags for the head (a refresh while a call runs). */
  head?: SafeHtml | undefined;
}

/** The frame of every console page: navigation, the logout form, one stylesheet, one script. */
export function consolePage(options: LayoutOptions): string {
  const { session } = options;
  return `<!doctype html>${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Toolshed console</title>
<link rel="stylesheet" href="/assets/console.css">
<script src="/assets/console.js" defer></script>
<script src="/assets/view-host.js" defer></script>
${options.head}
</head>
<body>
<header>
  <strong>Toolshed</strong>
  ${
    session === undefined
      ? ''
      : html`<nav aria-label="Console">${pages.map(
          ([name, href, label]) =>
            html`<a href="${href}"${name === options.current ? html` aria-current="page"` : ''}>${label}</a>`,
        )}</nav>
  <form method="post" action="/logout"><input type="hidden" name="csrf" value="${session.csrf}"><span>${session.user}</span> <button type="submit">Log out</button></form>`
  }
</header>
<main id="main">
<h1>${options.title}</h1>
${options.body}
</main>
</body>
</html>`}`;
}

export function notice(text: string | undefined, kind: 'info' | 'error' = 'info'): SafeHtml {
  if (text === undefined || text === '') return html``;
  return html`<p class="notice${kind === 'error' ? ' error' : ''}" role="${kind === 'error' ? 'alert' : 'status'}">${text}</p>`;
}
