/**
 * Pads a Markdown table as the project's formatter and mcp-core's options
 * table writer do (every cell to its column's width in code points, at least
 * 3), so a table whose placeholders were replaced reads as generated.
 * Written here because the generator runs before anything is installed.
 */
export function padMarkdownTable(table: string): string {
  const rows = table
    .trimEnd()
    .split('\n')
    .map((line) =>
      line
        .trim()
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  const [header = [], , ...body] = rows;
  const widths = header.map((title, column) =>
    Math.max(3, [...title].length, ...body.map((row) => [...(row[column] ?? '')].length)),
  );
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((text, column) => text + ' '.repeat((widths[column] ?? 0) - [...text].length)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...body.map(line)].join('\n');
}
