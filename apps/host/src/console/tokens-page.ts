import type { StoredToken } from './console-token-store.ts';
import { html, type SafeHtml } from './html.ts';

/** Who has a token, with forms to make one (shown once, here) and to revoke one. */
export function tokensPage(
  tokens: readonly StoredToken[],
  csrf: string,
  created?: { user: string; secret: string },
): SafeHtml {
  return html`${
    created === undefined
      ? ''
      : html`<div class="notice" role="status"><p>The token for <strong>${created.user}</strong>, shown this once (only its SHA-256 is kept):</p><p><code class="secret" id="new-token">${created.secret}</code></p></div>`
  }
<p>A token logs a person in to this console and, when the MCP endpoint requires auth, is accepted there as that user, until it is revoked. Each is 32 random bytes; the host keeps only their SHA-256.</p>
<table>
<thead><tr><th scope="col">User</th><th scope="col">Label</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="hint">Revoke</span></th></tr></thead>
<tbody>${tokens.map(
    (token) =>
      html`<tr data-token-id="${token.id}"><td>${token.user}</td><td>${token.label}</td><td>${token.createdAt}</td><td>${token.lastUsedAt ?? 'never'}</td><td><form method="post" action="/tokens/${token.id}/revoke"><input type="hidden" name="csrf" value="${csrf}"><button type="submit" class="danger">Revoke ${token.user}&rsquo;s token ${token.label}</button></form></td></tr>`,
  )}</tbody>
</table>
<h2>New token</h2>
<form method="post" action="/tokens">
<input type="hidden" name="csrf" value="${csrf}">
<label for="token-user">User</label><input type="text" id="token-user" name="user" required pattern="[A-Za-z0-9._@-]{1,64}" aria-describedby="token-user-hint">
<p class="hint" id="token-user-hint">Letters, digits, <code>. _ @ -</code>; shown in the audit log as the console caller.</p>
<label for="token-label">Label</label><input type="text" id="token-label" name="label" maxlength="80">
<p><button type="submit" class="primary">Create token</button></p>
</form>`;
}

export function loginPage(loginCsrf: string, message?: string): SafeHtml {
  return html`<div class="login">
${message === undefined ? '' : html`<p class="notice error" role="alert">${message}</p>`}
<form method="post" action="/login">
<input type="hidden" name="csrf" value="${loginCsrf}">
<label for="login-token">Token</label>
<input type="password" id="login-token" name="token" autocomplete="current-password" required autofocus>
<p><button type="submit" class="primary">Log in</button></p>
</form>
<p class="hint">The host prints the first token when it starts with no tokens; more are made on the Tokens page.</p>
</div>`;
}
