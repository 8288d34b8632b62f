import { quotedEnd } from '../quoted-text.ts';
import type { SqlEngineKind } from '../sql-engine.ts';

/** One placeholder as written in a vetted statement: by name (`:id`) or by position (`?`, `$1`). */
type Placeholder =
  | { form: 'named'; name: string; start: number; end: number }
  | { form: 'question'; start: number; end: number }
  | { form: 'numbered'; number: number; start: number; end: number };

/** A vetted statement in the engine's own placeholder form, and which declared parameter fills each bound value. */
export interface BoundStatement {
  sql: string;
  /** For each value the driver binds, in order: the index of the declared parameter it comes from. */
  order: number[];
}

const identifierChar = /[A-Za-z0-9_$]/;

/** The index after a quoted run starting at `start`; an unclosed one runs to the end. */
function skipQuoted(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  const end = quotedEnd(sql, start, quote, backslashEscapes);
  return end === -1 ? sql.length : end;
}

function skipBlockComment(sql: string, start: number, nests: boolean): number {
  let depth = 1;
  let index = start + 2;
  while (index < sql.length && depth > 0) {
    if (sql.startsWith('*/', index)) {
      depth--;
      index += 2;
    } else if (nests && sql.startsWith('/*', index)) {
      depth++;
      index += 2;
    } else index++;
  }
  return index;
}

function skipLine(sql: string, start: number): number {
  const end = sql.indexOf('\n', start);
  return end === -1 ? sql.length : end + 1;
}

/**
 * Every placeholder of a statement, found the way the engine's own lexer
 * reads it: nothing inside string literals, quoted identifiers, dollar-quoted
 * bodies or comments counts, `::` is PostgreSQL's cast and `:=` MySQL's
 * assignment, and on PostgreSQL `?` is the JSON operator, not a placeholder.
 */
function findPlaceholders(sql: string, engine: SqlEngineKind): Placeholder[] {
  const found: Placeholder[] = [];
  const mysql = engine === 'mysql';
  let index = 0;
  while (index < sql.length) {
    const char = sql[index] as string;
    const previous = index === 0 ? ' ' : (sql[index - 1] as string);
    if (char === "'") {
      const escapeString = engine === 'postgres' && (previous === 'E' || previous === 'e');
      index = skipQuoted(sql, index, "'", mysql || escapeString);
    } else if (char === '"') index = skipQuoted(sql, index, '"', mysql);
    else if (char === '`' && engine !== 'postgres') index = skipQuoted(sql, index, '`', false);
    else if (char === '[' && engine === 'sqlite') {
      const end = sql.indexOf(']', index);
      index = end === -1 ? sql.length : end + 1;
    } else if (char === '-' && sql[index + 1] === '-' && (!mysql || /[\s]|^$/.test(sql[index + 2] ?? ''))) {
      index = skipLine(sql, index);
    } else if (char === '#' && mysql) index = skipLine(sql, index);
    else if (char === '/' && sql[index + 1] === '*') index = skipBlockComment(sql, index, engine === 'postgres');
    else if (char === '$' && engine === 'postgres' && !identifierChar.test(previous)) {
      const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(index, index + 66))?.[0];
      if (tag !== undefined) {
        const end = sql.indexOf(tag, index + tag.length);
        index = end === -1 ? sql.length : end + tag.length;
      } else index = numbered(sql, index, found);
    } else if (char === '$' && !identifierChar.test(previous)) index = numbered(sql, index, found);
    else if (char === ':' && sql[index + 1] === ':') index += 2;
    else if (char === ':' && !identifierChar.test(previous)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(index + 1, index + 66))?.[0];
      if (name === undefined) index++;
      else {
        found.push({ form: 'named', name, start: index, end: index + 1 + name.length });
        index += 1 + name.length;
      }
    } else if (char === '?' && engine !== 'postgres') {
      found.push({ form: 'question', start: index, end: index + 1 });
      index++;
    } else index++;
  }
  return found;
}

function numbered(sql: string, index: number, found: Placeholder[]): number {
  const digits = /^[0-9]+/.exec(sql.slice(index + 1, index + 8))?.[0];
  if (digits === undefined) return index + 1;
  found.push({ form: 'numbered', number: Number(digits), start: index, end: index + 1 + digits.length });
  return index + 1 + digits.length;
}

/** How the engine writes the placeholder of the parameter at `parameter`. */
function enginePlaceholder(engine: SqlEngineKind, parameter: number): string {
  // PostgreSQL numbers its placeholders, so a parameter used twice is bound once; the others bind `?` in order.
  return engine === 'postgres' ? `$${parameter + 1}` : '?';
}

/**
 * Rewrites a vetted statement's placeholders into the engine's form. A
 * statement uses one form throughout: `:name` (each a declared parameter),
 * `?` (the declared parameters in order; not on PostgreSQL) or `$1`… (the
 * n-th declared parameter). Every declared parameter must be used: one that
 * is not is a mistake in the file. Throws an Error saying what is wrong.
 */
export function bindStatement(sql: string, engine: SqlEngineKind, parameters: readonly string[]): BoundStatement {
  const placeholders = findPlaceholders(sql, engine);
  const forms = new Set(placeholders.map((placeholder) => placeholder.form));
  if (forms.size > 1) {
    throw new Error('the statement mixes placeholder forms; use :name, ? or $1 throughout');
  }
  const indexOf = (placeholder: Placeholder, position: number): number => {
    switch (placeholder.form) {
      case 'named': {
        const index = parameters.indexOf(placeholder.name);
        if (index === -1) throw new Error(`the statement uses :${placeholder.name}, which is not a declared parameter`);
        return index;
      }
      case 'numbered':
        if (placeholder.number < 1 || placeholder.number > parameters.length) {
          throw new Error(
            `the statement uses $${placeholder.number}, but ${parameters.length} parameter(s) are declared`,
          );
        }
        return placeholder.number - 1;
      case 'question':
        if (position >= parameters.length) {
          throw new Error(`the statement has more ? placeholders than the ${parameters.length} declared parameter(s)`);
        }
        return position;
    }
  };
  let rewritten = '';
  let copied = 0;
  const order: number[] = [];
  for (const [position, placeholder] of placeholders.entries()) {
    const index = indexOf(placeholder, position);
    rewritten += sql.slice(copied, placeholder.start) + enginePlaceholder(engine, index);
    copied = placeholder.end;
    order.push(index);
  }
  rewritten += sql.slice(copied);
  const used = new Set(order);
  const unused = parameters.filter((_, index) => !used.has(index));
  if (unused.length > 0) {
    throw new Error(`the statement never uses the parameter(s) ${unused.join(', ')}`);
  }
  if (forms.has('question') && placeholders.length !== parameters.length) {
    throw new Error(
      `the statement has ${placeholders.length} ? placeholder(s) for ${parameters.length} declared parameter(s)`,
    );
  }
  return { sql: rewritten, order: engine === 'postgres' ? parameters.map((_, index) => index) : order };
}
