import { createRequire } from 'node:module';
import type { Parser as SqlParser } from 'node-sql-parser';
import { QueryFailure } from '../query-failure.ts';
import { statementShape } from '../statement-shape.ts';
import { scanMysqlSql } from './mysql-sql-scan.ts';

/**
 * The statement gate for MySQL and MariaDB: one statement, parsed by
 * node-sql-parser's MariaDB grammar, admitted only when it is a read (SELECT,
 * WITH … SELECT, SHOW, DESCRIBE, EXPLAIN of a SELECT) that writes no file or
 * variable, locks nothing and calls no function with effects outside the
 * rows it reads. What the parser would wave through as a comment is refused
 * by the lexical scan before it. The READ ONLY transaction, the statement
 * time limit and the connection reset stand behind this gate.
 */

export const mysqlOnlyReadsMessage: string =
  'Only reads are allowed: one SELECT, WITH … SELECT, SHOW, DESCRIBE or EXPLAIN statement. ' +
  'Writes, schema changes, INTO OUTFILE/@variables, locking reads, HANDLER, LOCK TABLES, SET and transaction statements are refused; ' +
  'use list_tables and describe_table for the schema.';

/** Functions whose effects outlive the statement or reach past the rows it reads. */
const refusedFunctions = new Map<string, string>([
  ['get_lock', 'takes a named lock'],
  ['release_lock', 'releases a named lock'],
  ['release_all_locks', 'releases named locks'],
  ['benchmark', 'burns server time on purpose'],
  ['load_file', 'reads a file on the database server'],
  ['nextval', 'advances a sequence'],
  ['setval', 'changes a sequence'],
  ['lastval', 'reads session sequence state'],
  ['master_pos_wait', 'waits on replication'],
  ['master_gtid_wait', 'waits on replication'],
  ['source_pos_wait', 'waits on replication'],
  ['wait_for_executed_gtid_set', 'waits on replication'],
  ['wait_until_sql_thread_after_gtids', 'waits on replication'],
  ['sys_exec', 'runs a program on the database server'],
  ['sys_eval', 'runs a program on the database server'],
]);

/** Words that only appear in statements or clauses that write, lock or leave something behind. */
const refusedWords = new Map<string, string>([
  ['into', 'SELECT … INTO writes a file or variables'],
  ['outfile', 'INTO OUTFILE writes a file on the database server'],
  ['dumpfile', 'INTO DUMPFILE writes a file on the database server'],
  ['handler', 'HANDLER opens a table cursor that outlives the call'],
  ['lock', 'locking reads and LOCK TABLES hold locks'],
  ['update', 'FOR UPDATE locks rows'],
  ['kill', 'KILL stops other sessions'],
  ['shutdown', 'SHUTDOWN stops the server'],
]);

/** The first words a read can start with (a parenthesized SELECT starts with its SELECT). */
const readForms = new Set(['select', 'with', 'show', 'desc', 'describe', 'explain']);

let parser: SqlParser | undefined;

function mariadbParser(): SqlParser {
  // The MariaDB grammar alone: the package's main entry loads every dialect's grammar (about 4 MB).
  if (parser === undefined) {
    const { Parser } = createRequire(import.meta.url)('node-sql-parser/build/mariadb.js') as {
      Parser: new () => SqlParser;
    };
    parser = new Parser();
  }
  return parser;
}

function refuse(reason: string): never {
  throw new QueryFailure('not_a_read', `${reason}. ${mysqlOnlyReadsMessage}`);
}

interface AstNode {
  type?: unknown;
  [key: string]: unknown;
}

function functionName(node: AstNode): string {
  const name = node.name as { name?: { value?: unknown }[] } | string | undefined;
  if (typeof name === 'string') return name.toLowerCase();
  const parts = name?.name ?? [];
  return String(parts[parts.length - 1]?.value ?? '').toLowerCase();
}

/** Every node of the tree, the statement's own included. */
function* nodesOf(value: unknown): Generator<AstNode> {
  if (Array.isArray(value)) for (const item of value) yield* nodesOf(item);
  else if (value !== null && typeof value === 'object') {
    yield value as AstNode;
    for (const child of Object.values(value)) yield* nodesOf(child);
  }
}

function checkSleep(node: AstNode, timeoutMs: number): void {
  const args = (node.args as { value?: AstNode[] } | undefined)?.value ?? [];
  const seconds = args.length === 1 && args[0]?.type === 'number' ? Number(args[0].value) : Number.NaN;
  if (!(seconds * 1000 <= timeoutMs)) {
    refuse(`SLEEP is allowed only with a number of seconds within the ${timeoutMs} ms time limit`);
  }
}

function checkTree(ast: AstNode, timeoutMs: number, called: Set<string>): void {
  for (const node of nodesOf(ast)) {
    if (node.type === 'function') {
      const name = functionName(node);
      called.add(name);
      const effect = refusedFunctions.get(name);
      if (effect !== undefined) refuse(`${name.toUpperCase()}() ${effect}`);
      if (name === 'sleep') checkSleep(node, timeoutMs);
    } else if (node.type === 'select') {
      const into = node.into as { position?: unknown; keyword?: unknown } | undefined;
      if (into !== undefined && (into.position != null || into.keyword != null)) {
        refuse('SELECT … INTO writes a file or variables');
      }
      if (node.locking_read != null) refuse('Locking reads (FOR UPDATE, LOCK IN SHARE MODE) hold locks');
    } else if (node.type === 'assign') refuse('Assignments change the session');
  }
}

function checkStatement(ast: AstNode, timeoutMs: number, called: Set<string>): void {
  switch (ast.type) {
    case 'select':
    case 'show':
    case 'desc':
      break;
    case 'explain': {
      const explained = ast.expr as AstNode | undefined;
      if (explained?.type !== 'select') refuse('EXPLAIN is allowed for SELECT statements only');
      break;
    }
    default:
      refuse(`${String(ast.type ?? 'This statement').toUpperCase()} is not a read`);
  }
  checkTree(ast, timeoutMs, called);
}

/** A statement the gate admitted. */
export interface AdmittedRead {
  /** The text to send: the statement without a trailing `;`. */
  statement: string;
  /**
   * The names of the functions it calls, lower-cased. Stored functions among
   * them are refused on the server's word (`refuseStoredFunctions`): the gate
   * cannot tell them from built-ins, and one defined by an administrator runs
   * with the administrator's rights.
   */
  functions: string[];
}

/** Checks one statement; throws a `not_a_read` QueryFailure saying why it is refused. */
export function admitMysqlRead(sql: string, timeoutMs: number): AdmittedRead {
  const scan = scanMysqlSql(sql);
  if (scan.refusal !== undefined) throw new QueryFailure('not_a_read', scan.refusal);
  const first = scan.words[0] ?? '';
  if (first === 'values' || first === 'table') {
    refuse(`Write ${first.toUpperCase()} … as a SELECT (SELECT * FROM t, or SELECT … UNION ALL SELECT …)`);
  }
  if (!readForms.has(first)) refuse(`${first.toUpperCase() || 'This'} is not a read`);
  for (const [index, word] of scan.words.entries()) {
    const clause = refusedWords.get(word);
    if (clause !== undefined) refuse(clause);
    const effect = refusedFunctions.get(word);
    if (effect !== undefined) refuse(`${word.toUpperCase()}() ${effect}`);
    if ((word === 'next' || word === 'previous') && scan.words[index + 1] === 'value') {
      refuse('NEXT VALUE FOR and PREVIOUS VALUE FOR use sequences');
    }
  }
  for (const identifier of scan.quotedIdentifiers) {
    const effect = refusedFunctions.get(identifier);
    if (effect !== undefined) refuse(`${identifier.toUpperCase()}() ${effect}`);
  }
  let statements: AstNode[];
  try {
    const ast = mariadbParser().astify(scan.statement, { database: 'mariadb' }) as unknown;
    statements = (Array.isArray(ast) ? ast : [ast]) as AstNode[];
  } catch (error) {
    const detail = (error as Error).message.split('\n')[0]?.slice(0, 200) ?? '';
    throw new QueryFailure(
      'not_a_read',
      `The statement could not be checked, so it was not run (${detail}). ` +
        'Write it as one plain SELECT (without JSON_TABLE, ->> or PARTITION clauses, which the checker does not read). ' +
        mysqlOnlyReadsMessage,
    );
  }
  if (statements.length !== 1)
    throw new QueryFailure('not_a_read', `Send exactly one statement per call. ${mysqlOnlyReadsMessage}`);
  const called = new Set<string>();
  checkStatement(statements[0] as AstNode, timeoutMs, called);
  // A quoted name (`f`()) or a schema-qualified one (shop.f()) can only be a stored function.
  for (const identifier of scan.quotedIdentifiers) called.add(identifier);
  return { statement: scan.statement, functions: [...called] };
}

/**
 * Refuses a statement that calls a stored function, given the stored
 * functions among its names that the account can see (and so call). A
 * SELECT-only account can call none; an owner's or administrator's functions
 * may write, lock, sleep or change settings with their definer's rights, so
 * none is called and the owner stays exactly as read-only as a reader.
 */
export function refuseStoredFunctions(storedFunctions: readonly string[]): void {
  if (storedFunctions.length > 0) {
    refuse(
      `${storedFunctions.map((name) => `${name}()`).join(', ')} ${storedFunctions.length === 1 ? 'is a stored function' : 'are stored functions'}, which can write, lock or change settings with their definer's rights`,
    );
  }
}

/**
 * The gate's verdicts on the statements seen lately, by their text: parsing
 * costs about a millisecond of the server's one thread, and a model or an
 * application sends the same statement with new params again and again.
 * A verdict is also kept by the statement's shape (its integer literals as
 * `0`, see `statementShape`), so that ids written into the SQL do not make
 * every lookup a new parse: the gate's verdict depends on no integer's value
 * except SLEEP's seconds, so a statement that calls SLEEP is kept by its text
 * only. A text of a known shape is the cached statement with other integers:
 * the same words, functions and verdict; the text sent is its own.
 * Refusals are not kept; they are rare and their messages cheap to remake.
 */
/** Shapes and texts in one map: a shape's key cannot be mistaken for a text. */
function shapeKey(shape: string): string {
  return `\u0000${shape}`;
}

export class AdmittedReadCache {
  private readonly verdicts = new Map<string, AdmittedRead>();
  private readonly size: number;
  private readonly timeoutMs: number;

  constructor(timeoutMs: number, size = 256) {
    this.timeoutMs = timeoutMs;
    this.size = size;
  }

  admit(sql: string): AdmittedRead {
    const shape = statementShape(sql);
    const key = shape === undefined ? sql : shapeKey(shape);
    const known = this.verdicts.get(key) ?? this.verdicts.get(sql);
    if (known !== undefined) {
      const hit = this.verdicts.has(key) ? key : sql;
      // Most recently used last: the first key is the one to drop.
      this.verdicts.delete(hit);
      this.verdicts.set(hit, known);
      // Another text of the shape: one with no `;` to cut, sent as it came.
      return known.statement === sql ? known : { statement: sql, functions: known.functions };
    }
    const admitted = admitMysqlRead(sql, this.timeoutMs);
    if (this.verdicts.size >= this.size) this.verdicts.delete(this.verdicts.keys().next().value as string);
    this.verdicts.set(admitted.functions.includes('sleep') ? sql : key, admitted);
    return admitted;
  }
}
