/** A console session on one replica's console, logged in with a token as a browser would. */
export async function consoleLogin(base: string, token: string): Promise<{ cookie: string; csrf: string }> {
  const form = await fetch(`${base}login`);
  const loginCookie = (form.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const origin = base.replace(/\/$/, '');
  const login = await fetch(`${base}login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin, cookie: loginCookie },
    body: new URLSearchParams({ csrf: loginCookie.split('=')[1] ?? '', token }).toString(),
  });
  const cookie = (login.headers.getSetCookie().find((line) => line.startsWith('toolshed_console=')) ?? '').split(
    ';',
  )[0] as string;
  const page = await (await fetch(`${base}approvals`, { headers: { cookie } })).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  return { cookie, csrf };
}

export async function decideInConsole(
  base: string,
  session: { cookie: string; csrf: string },
  approval: { id: string; tool: string; argumentsDigest: string },
  decision: 'approve' | 'deny',
): Promise<number> {
  const response = await fetch(`${base}approvals/${approval.id}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: base.replace(/\/$/, ''),
      cookie: session.cookie,
    },
    body: new URLSearchParams({
      csrf: session.csrf,
      tool: approval.tool,
      digest: approval.argumentsDigest,
      decision,
    }).toString(),
  });
  await response.arrayBuffer();
  return response.status;
}
