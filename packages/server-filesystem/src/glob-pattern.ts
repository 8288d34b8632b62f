import { Minimatch } from 'minimatch';

/**
 * Glob patterns matched against `/`-separated paths relative to the search
 * start, as the reference server matches them: `minimatch(path, pattern,
 * { dot: true })`, so a pattern — extglobs, POSIX classes, braces, negation —
 * means the same here.
 */
export type GlobMatcher = (relativePath: string) => boolean;

const options = { dot: true };

/**
 * Patterns whose compiled expression agrees with minimatch's own matcher on
 * every path a walk produces (checked by comparing the two in the tests). It
 * disagrees on extglobs, POSIX classes, negation, comments, empty segments and
 * a trailing `/**` (which the expression lets match the directory itself).
 */
function expressionAgrees(pattern: string): boolean {
  return !/[()]|\[:|^[!#]|\/\/|\/\*\*$/.test(pattern);
}

/**
 * Parses a glob once. Common patterns run as one regular expression — matching
 * with minimatch's matcher costs about ten times as much per path, which a walk
 * of many thousand files feels. An invalid pattern matches nothing rather than
 * failing the call.
 */
export function compileGlob(pattern: string): GlobMatcher {
  let glob: Minimatch;
  let expression: RegExp | false;
  try {
    glob = new Minimatch(pattern, options);
    expression = expressionAgrees(pattern) ? glob.makeRe() : false;
  } catch {
    return () => false;
  }
  if (expression !== false) return (relativePath) => expression.test(relativePath);
  return (relativePath) => glob.match(relativePath);
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
