/**
 * A pass over MySQL/MariaDB SQL text with the server's own lexical rules, for
 * what a parser that treats comments as comments cannot see: the server runs
 * `/*! … *\/` and `/*M! … *\/` as code and MySQL applies `/*+ SET_VAR(…) *\/`
 * hints, `--` starts a comment only before white space (`1--1` is 1 - -1),
 * strings take backslash escapes, and a `;` outside quotes ends a statement.
 */

import { quotedEnd } from '../quoted-text.ts';

export interface SqlScan {
  /** Why the text is refused before any parser sees it, or undefined. */
  refusal: string | undefined;
  /** Bare words outside strings and comments, lower-cased, in order. */
  words: string[];
  /** Contents of backtick-quoted identifiers, lower-cased. */
  quotedIdentifiers: string[];
  /** The text up to its one statement's end: a trailing `;` and what follows it (space, comments) removed. */
  statement: string;
}

const executableComment =
  'MariaDB and MySQL run the inside of /*! … */ and /*M! … */ comments as SQL, and MySQL applies /*+ … */ hints: remove them.';

function isSpace(char: string | undefined): boolean {
  return char !== undefined && (char === ' ' || char === '\t' || char === '\n' || char === '\r' || char <= '\u001f');
}

function isWordChar(char: string): boolean {
  return /[A-Za-z0-9_$]/.test(char) || char >= '\u0080';
}

export function scanMysqlSql(sql: string): SqlScan {
  const words: string[] = [];
  const quotedIdentifiers: string[] = [];
  const refuse = (refusal: string): SqlScan => ({ refusal, words, quotedIdentifiers, statement: sql });
  if (sql.includes('\u0000')) return refuse('The SQL contains a NUL character; remove it and send one statement.');
  let index = 0;
  let statementEnd: number | undefined;
  while (index < sql.length) {
    const char = sql[index] as string;
    const next = sql[index + 1];
    if (statementEnd !== undefined && !isSpace(char) && char !== '#' && char !== '-' && char !== '/') {
      return refuse('Send exactly one statement per call, without anything after its `;`.');
    }
    if (char === "'" || char === '"') {
      const end = quotedEnd(sql, index, char, true);
      if (end === -1) return refuse('A string is not closed.');
      index = end;
    } else if (char === '`') {
      const end = quotedEnd(sql, index, '`', false);
      if (end === -1) return refuse('A `quoted` identifier is not closed.');
      quotedIdentifiers.push(
        sql
          .slice(index + 1, end - 1)
          .replaceAll('``', '`')
          .toLowerCase(),
      );
      index = end;
    } else if (char === '#' || (char === '-' && next === '-' && (index + 2 >= sql.length || isSpace(sql[index + 2])))) {
      const end = sql.indexOf('\n', index);
      index = end === -1 ? sql.length : end + 1;
    } else if (char === '/' && next === '*') {
      const marker = sql.slice(index + 2, index + 4);
      if (marker.startsWith('!') || marker.startsWith('+') || /^m!/i.test(marker)) return refuse(executableComment);
      const end = sql.indexOf('*/', index + 2);
      if (end === -1) return refuse('A /* comment is not closed.');
      index = end + 2;
    } else if (isSpace(char)) {
      index++;
    } else if (statementEnd !== undefined) {
      return refuse('Send exactly one statement per call, without anything after its `;`.');
    } else if (char === ';') {
      statementEnd = index;
      index++;
    } else if (char === ':' && next === '=') {
      return refuse('Assignments (:=) change the session; select the expression instead.');
    } else if (isWordChar(char)) {
      let end = index + 1;
      while (end < sql.length && isWordChar(sql[end] as string)) end++;
      words.push(sql.slice(index, end).toLowerCase());
      index = end;
    } else index++;
  }
  return { refusal: undefined, words, quotedIdentifiers, statement: sql.slice(0, statementEnd ?? sql.length) };
}
