/**
 * The shape of a statement: its text with every integer literal written as
 * `0`, so that `SELECT * FROM t WHERE id = 17` and `… id = 42` share one
 * verdict of a statement gate. A model writes ids into its SQL, so a gate that
 * remembered verdicts by text alone would parse every lookup again (a
 * millisecond of the server's one thread for MariaDB's parser).
 *
 * A shape is given only for texts made of characters whose lexing is the same
 * in PostgreSQL and MySQL/MariaDB and cannot hide anything: ASCII letters,
 * digits, `_`, space, tab, line breaks and `* , ( ) . = < >`. No quote, comment, `;`,
 * `$`, `-`, `/`, `:` or `@` can appear, so the text holds no string, comment,
 * parameter, variable or second statement; every other text has no shape and
 * is checked in full. Within such a text a run of digits with no letter,
 * digit, `_` or `.` on either side is an integer literal to both servers
 * (`t1`, `1e5`, `0x1F`, `1.5` and `1abc` are left as they are). Two texts of
 * one shape differ only in the values of integer literals, so a gate whose
 * verdict does not depend on those values gives both the same one.
 */

const shapedText = /^[A-Za-z0-9_ \t\n\r*,().=<>]*$/;
const integerLiteral = /(?<![A-Za-z0-9_.])[0-9]+(?![A-Za-z0-9_.])/g;

/** The text's shape, or undefined when the text holds anything but the characters above. */
export function statementShape(sql: string): string | undefined {
  if (!shapedText.test(sql)) return undefined;
  return sql.replace(integerLiteral, '0');
}
