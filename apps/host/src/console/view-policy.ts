/** The origins a view declares in `_meta.ui.csp` (MCP Apps), each list optional. */
export interface DeclaredViewPolicy {
  connectDomains?: unknown;
  resourceDomains?: unknown;
  frameDomains?: unknown;
  baseUriDomains?: unknown;
}

/**
 * An origin as a policy may name it: a scheme the web fetches over, a host
 * (optionally `*.` for its subdomains) and a port. Anything else a server
 * declares — a keyword, a path, a space or a `;` that would start another
 * directive — is left out, so a view can widen its policy only by origins.
 */
const origin = /^(?:https?|wss?):\/\/(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?$/;

function origins(list: unknown): string[] {
  return Array.isArray(list)
    ? list.filter((item): item is string => typeof item === 'string' && origin.test(item))
    : [];
}

function directive(name: string, sources: readonly string[]): string {
  return `${name} ${sources.length === 0 ? "'none'" : sources.join(' ')}`;
}

/**
 * The Content-Security-Policy a view is served with from the console's view
 * listener: inline script and style (a view is one self-contained document)
 * and `data:` images, widened only by the origins the view declares, no
 * plugin, form or base unless declared, and `frame-ancestors` naming the
 * console alone, so no other page can frame a view the console mounted.
 * With nothing declared, nothing outside the document loads or connects.
 *
 * @example
 * viewPolicy({ connectDomains: ['https://api.example.com'] }, 'http://127.0.0.1:3100');
 */
export function viewPolicy(declared: DeclaredViewPolicy | undefined, consoleOrigin: string): string {
  const resources = origins(declared?.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources.join(' ')}`.trim(),
    `style-src 'unsafe-inline' ${resources.join(' ')}`.trim(),
    `img-src data: ${resources.join(' ')}`.trim(),
    `media-src data: ${resources.join(' ')}`.trim(),
    directive('font-src', resources),
    directive('connect-src', origins(declared?.connectDomains)),
    directive('frame-src', origins(declared?.frameDomains)),
    directive('base-uri', origins(declared?.baseUriDomains)),
    "form-action 'none'",
    "object-src 'none'",
    `frame-ancestors ${consoleOrigin}`,
  ].join('; ');
}
