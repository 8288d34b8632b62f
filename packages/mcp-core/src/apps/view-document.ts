import { viewRuntimeScript } from './view-runtime.ts';

export interface ViewDocumentInput {
  title: string;
  /** The view's CSS. */
  style: string;
  /** The view's markup, inside `<body>`. */
  body: string;
  /** The view's script; runs after the runtime, so `mcpView` is defined. */
  script: string;
}

/**
 * The policy a view's document sets for itself, whatever the host sets:
 * inline script and style only, images from `data:` URIs, and no connection,
 * frame, form or base anywhere, so nothing in a view reaches another origin
 * (a tracking pixel in a message, a link the data carries).
 */
const viewPolicy =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; " +
  "connect-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'";

/**
 * A view's whole HTML: the policy, the shared runtime and the view's own
 * style, markup and script, in one self-contained document.
 *
 * @example
 * const html = viewDocument({ title: 'Query', style: 'table{}', body: '<table></table>', script: 'mcpView.start({...})' });
 */
export function viewDocument(input: ViewDocumentInput): string {
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${viewPolicy}">` +
    '<meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>${input.title}</title><style>${input.style}</style></head><body>${input.body}` +
    `<script>${viewRuntimeScript}</script><script>${input.script}</script></body></html>`
  );
}
