/**
 * Glob patterns compiled once to a regular expression, matched against
 * `/`-separated paths relative to the search start: `*` and `?` within one
 * name, `**` across names (also none), `[abc]`, `[!abc]`, `{a,b}`, `\` escapes.
 * Dotfiles match like any other name, as in the reference server.
 */
export type GlobMatcher = (relativePath: string) => boolean;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function translate(pattern: string): string {
  let out = '';
  let index = 0;
  let braces = 0;
  while (index < pattern.length) {
    const char = pattern[index] as string;
    if (char === '\\' && index + 1 < pattern.length) {
      out += escapeRegExp(pattern[index + 1] as string);
      index += 2;
      continue;
    }
    if (char === '*') {
      if (pattern[index + 1] === '*') {
        const atStart = index === 0 || pattern[index - 1] === '/';
        const next = pattern[index + 2];
        if (atStart && next === '/') {
          out += '(?:[^/]*/)*';
          index += 3;
          continue;
        }
        if (atStart && next === undefined) {
          out += '.*';
          index += 2;
          continue;
        }
      }
      out += '[^/]*';
      while (pattern[index] === '*') index++;
      continue;
    }
    if (char === '?') {
      out += '[^/]';
      index++;
      continue;
    }
    if (char === '[') {
      const close = pattern.indexOf(']', index + 2);
      if (close !== -1) {
        let body = pattern.slice(index + 1, close);
        const negated = body.startsWith('!') || body.startsWith('^');
        if (negated) body = body.slice(1);
        out += `[${negated ? '^/' : ''}${body.replace(/\\/g, '\\\\').replace(/^\]/, '\\]')}]`;
        index = close + 1;
        continue;
      }
    }
    if (char === '{') {
      braces++;
      out += '(?:';
      index++;
      continue;
    }
    if (char === '}' && braces > 0) {
      braces--;
      out += ')';
      index++;
      continue;
    }
    if (char === ',' && braces > 0) {
      out += '|';
      index++;
      continue;
    }
    out += escapeRegExp(char);
    index++;
  }
  return out + ')'.repeat(braces);
}

/** Compiles a glob; an invalid one matches nothing rather than failing the call. */
export function compileGlob(pattern: string): GlobMatcher {
  let expression: RegExp;
  try {
    expression = new RegExp(`^${translate(pattern)}$`, 'u');
  } catch {
    return () => false;
  }
  return (relativePath) => expression.test(relativePath);
}

/**
 * The reference directory_tree's exclusion rule: a pattern with `*` is a glob
 * on the relative path; a plain name also matches at any depth and excludes
 * everything below it.
 */
export function compileExclusion(patterns: readonly string[]): GlobMatcher {
  const matchers = patterns.flatMap((pattern) =>
    pattern.includes('*')
      ? [compileGlob(pattern)]
      : [compileGlob(pattern), compileGlob(`**/${pattern}`), compileGlob(`**/${pattern}/**`)],
  );
  if (matchers.length === 0) return () => false;
  return (relativePath) => matchers.some((matches) => matches(relativePath));
}
