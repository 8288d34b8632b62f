import { LocalError } from '../errors/local-error.ts';

/** A compiled RFC 6570 template that can tell whether a URI is one of its expansions. */
export interface UriTemplate {
  readonly template: string;
  readonly variables: readonly string[];
  /** The variables a URI was expanded from, or undefined when it is not an expansion. */
  match(uri: string): Record<string, string> | undefined;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const simple = { first: '', separator: ',', value: '[^/?#,]*', decode: decodeURIComponent };
const variablePattern = /^[A-Za-z0-9_]+$/;

/** For each operator: the character before each value, between values, and what a value may contain. */
const operators: Record<string, { first: string; separator: string; value: string; decode: (s: string) => string }> = {
  '': simple,
  '+': { first: '', separator: ',', value: '[^?#,]*', decode: decodeURI },
  '#': { first: '#', separator: ',', value: '[^,]*', decode: decodeURI },
  '/': { first: '/', separator: '/', value: '[^/?#]*', decode: decodeURIComponent },
  '.': { first: '.', separator: '.', value: '[^/?#.]*', decode: decodeURIComponent },
};

function safeDecode(decode: (s: string) => string, text: string): string | undefined {
  try {
    return decode(text);
  } catch {
    return undefined;
  }
}

/**
 * Compiles the expressions resource templates use in practice: `{var}`,
 * `{+var}`, `{#var}`, `{/var}`, `{.var}` (levels 1 and 2, with several
 * variables per expression) and the query forms `{?a,b}` / `{&a,b}`, whose
 * variables are optional and may come in any order. Modifiers (`*`, `:n`) are
 * refused at definition time rather than matched wrongly.
 */
export function compileUriTemplate(template: string): UriTemplate {
  const variables: string[] = [];
  const decoders: ((s: string) => string)[] = [];
  const queryVariables: string[] = [];
  let pattern = '';
  let rest = template;
  for (;;) {
    const open = rest.indexOf('{');
    if (open === -1) break;
    const close = rest.indexOf('}', open);
    if (close === -1) throw new LocalError('config_invalid', `URI template "${template}" has an unclosed "{"`);
    if (queryVariables.length > 0 && rest.slice(0, open) !== '') {
      throw new LocalError('config_invalid', `URI template "${template}": a query expression must come last`);
    }
    pattern += escapeRegExp(rest.slice(0, open));
    const expression = rest.slice(open + 1, close);
    const operator = /^[+#/.?&]/.test(expression) ? expression.charAt(0) : '';
    const names = expression.slice(operator.length).split(',');
    for (const name of names) {
      if (!variablePattern.test(name)) {
        throw new LocalError(
          'config_invalid',
          `URI template "${template}": "${name}" is not a supported variable (letters, digits and "_"; no modifiers)`,
        );
      }
    }
    if (operator === '?' || operator === '&') {
      queryVariables.push(...names);
    } else {
      const { first, separator, value, decode } = operators[operator] ?? simple;
      pattern += names
        .map((name, index) => {
          variables.push(name);
          decoders.push(decode);
          return `${escapeRegExp(index === 0 ? first : separator)}(${value})`;
        })
        .join('');
    }
    rest = rest.slice(close + 1);
  }
  if (queryVariables.length > 0 && rest !== '') {
    throw new LocalError('config_invalid', `URI template "${template}": a query expression must come last`);
  }
  pattern += escapeRegExp(rest);
  if (queryVariables.length > 0) pattern += '(?:\\?([^#]*))?';
  const regex = new RegExp(`^${pattern}$`);

  return {
    template,
    variables: [...variables, ...queryVariables],
    match(uri) {
      const found = regex.exec(uri);
      if (found === null) return undefined;
      const values: Record<string, string> = {};
      for (const [index, name] of variables.entries()) {
        const decoded = safeDecode(decoders[index] ?? decodeURIComponent, found[index + 1] ?? '');
        if (decoded === undefined) return undefined;
        values[name] = decoded;
      }
      if (queryVariables.length > 0) {
        const query = new URLSearchParams(found[variables.length + 1] ?? '');
        for (const name of queryVariables) {
          const value = query.get(name);
          if (value !== null) values[name] = value;
        }
      }
      return values;
    },
  };
}
