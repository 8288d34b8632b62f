import type { HtmlToTextOptions } from 'html-to-text';

// What a reader of the rendered mail would not see: it must not reach the model either,
// where hidden text is a common way to slip instructions past the user.
const hiddenStyles = [
  'display:none',
  'display: none',
  'visibility:hidden',
  'visibility: hidden',
  'font-size:0',
  'font-size: 0',
  'opacity:0',
  'opacity: 0',
  'max-height:0',
  'max-height: 0',
  'height:0',
  'height: 0',
  'width:0',
  'width: 0',
];

const skipped = [
  'head',
  'script',
  'style',
  'template',
  'noscript',
  'iframe',
  'object',
  'embed',
  'svg',
  'title',
  '[hidden]',
  '[aria-hidden="true"]',
  ...hiddenStyles.map((style) => `[style*="${style}" i]`),
];

// Link targets passed on as links: the web and mail. `javascript:`, `vbscript:` and `data:` above all run or carry
// content when followed; any other scheme is left out with them, and the link's text stays.
const linkSchemes = new Set(['http', 'https', 'mailto']);

/** A link's target when it is one to pass on, else '' (html-to-text then keeps only the link's text). */
export function safeLinkTarget(href: string): string {
  // Browsers ignore controls and whitespace inside a scheme ("java\tscript:"), and read it in any case.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(href.replace(/[\p{Cc}\p{Zs}]/gu, ''))?.[1]?.toLowerCase();
  return scheme === undefined || linkSchemes.has(scheme) ? href : '';
}

const options: HtmlToTextOptions = {
  wordwrap: false,
  selectors: [
    ...skipped.map((selector) => ({ selector, format: 'skip' })),
    // Links stay as text, their target after them; images become their alt text.
    { selector: 'a', options: { hideLinkHrefIfSameAsText: true, noAnchorUrl: true, pathRewrite: safeLinkTarget } },
    { selector: 'img', format: 'skip' },
  ],
  limits: { maxDepth: 64, maxChildNodes: 10_000, ellipsis: '…' },
};

let converter: Promise<(html: string) => string> | undefined;

/** The text a reader of an HTML mail sees, with hidden elements, scripts and styles left out. */
export async function htmlToPlainText(html: string): Promise<string> {
  // Compiled on first use, so that a server that only sends never loads the HTML parser.
  converter ??= import('html-to-text').then(({ compile }) => compile(options));
  return (await converter)(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
