import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Deeper than any config needs, shallow enough that every recursive step
 * after parsing (variables, schema checks) stays far from the stack's end.
 */
export const maxConfigDepth = 64;

function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
    line += 1;
    lineStart = index + 1;
  }
  return `line ${line} column ${offset - lineStart + 1}`;
}

/**
 * Where the text first nests arrays and objects deeper than `maxConfigDepth`,
 * found in one pass that skips strings and comments, before any parser
 * (which would recurse once a level) sees it.
 */
function tooDeepAt(text: string): number | undefined {
  let depth = 0;
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character === '"') {
      for (index++; index < text.length && text[index] !== '"'; index++) if (text[index] === '\\') index++;
    } else if (character === '/' && text[index + 1] === '/') {
      const end = text.indexOf('\n', index);
      index = end === -1 ? text.length : end;
    } else if (character === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 1;
    } else if (character === '{' || character === '[') {
      depth += 1;
      if (depth > maxConfigDepth) return index;
    } else if (character === '}' || character === ']') {
      depth -= 1;
    }
  }
  return undefined;
}

/**
 * A config file's text as JSON with comments and trailing commas (JSONC),
 * which VS Code's `mcp.json` and Cursor's configs use. The one reason it
 * cannot be read, with where, is thrown as an Error's message; nesting
 * deeper than 64 levels is refused before parsing.
 */
export function parseConfigJson(source: string): Json {
  // Editors on Windows may start the file with a byte order mark, which is not JSON.
  const text = source.startsWith('\uFEFF') ? source.slice(1) : source;
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    throw new Error(
      `nested deeper than ${maxConfigDepth} levels at ${lineAndColumn(text, deep)}; no config needs that`,
    );
  }
  const errors: ParseError[] = [];
  const document = parse(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false });
  const [first] = errors;
  if (first !== undefined) {
    throw new Error(`not valid JSON (${printParseErrorCode(first.error)} at ${lineAndColumn(text, first.offset)})`);
  }
  return document as Json;
}
