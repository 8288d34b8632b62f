/** Markup that is already escaped: what `html` returns, and the only thing it interpolates unescaped. */
export class SafeHtml {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => entities[character] ?? character);
}

type Interpolated = SafeHtml | string | number | boolean | undefined | null | readonly Interpolated[];

function render(value: Interpolated): string {
  if (value === undefined || value === null || value === false) return '';
  if (value instanceof SafeHtml) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * A template for markup in which every interpolated value is escaped unless
 * it is itself the result of `html`: the console shows tool arguments,
 * results and log lines written by others, and none of it may become markup.
 *
 * @example
 * html`<td>${row.tool}</td>` // row.tool = '<script>' renders as text
 */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let text = strings[0] ?? '';
  for (let index = 0; index < values.length; index++) {
    text += render(values[index] as Interpolated) + (strings[index + 1] ?? '');
  }
  return new SafeHtml(text);
}
