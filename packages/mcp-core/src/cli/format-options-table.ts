import type * as z from 'zod';
import { kebabCase, type OptionField } from '../options/option-fields.ts';
import type { ServerCli } from './server-cli.ts';

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function code(text: string | undefined): string {
  return text === undefined || text === '' ? '–' : `\`${cell(text)}\``;
}

function flagWithValue(flag: string, option: { type?: string | undefined; placeholder?: string | undefined }): string {
  if (option.type === 'boolean') return `--${flag}`;
  return `--${flag} ${option.placeholder ?? (option.type === 'number' ? 'N' : 'VALUE')}`;
}

function shownDefault(field: OptionField): string {
  if (field.defaultValue === undefined) return field.required ? 'required' : '–';
  return code(JSON.stringify(field.defaultValue));
}

/**
 * The README's options table: every option with its flag, environment
 * variable, key in the options object (library and host config), default
 * and description, then the bin's HTTP flags — generated, so it cannot drift
 * from the schema.
 *
 * @example
 * formatOptionsTable(sqlCli) // '| Flag | Environment | Option | Default | Description |\n…'
 */
export function formatOptionsTable<Schema extends z.ZodObject>(cli: ServerCli<Schema>): string {
  const rows = cli.fields.map((field) => [
    field.flag === undefined ? '–' : code(flagWithValue(field.flag, field)),
    code(field.env),
    code(field.path.join('.')),
    shownDefault(field),
    cell(field.description),
  ]);
  // The bin's own flags (serving over HTTP) have no place in the options object.
  const ownFlags = new Set(cli.fields.map((field) => field.flag));
  for (const [key, option] of Object.entries(cli.spec.options)) {
    const flag = kebabCase(key);
    if (ownFlags.has(flag)) continue;
    const shown = option.default === undefined ? '–' : code(JSON.stringify(option.default));
    rows.push([code(flagWithValue(flag, option)), code(option.env), '–', shown, cell(option.description)]);
  }
  const header = ['Flag', 'Environment', 'Option', 'Default', 'Description'];
  // Padded as the repository's formatter pads Markdown tables, so formatting leaves the table as generated.
  const widths = header.map((title, column) =>
    Math.max(3, title.length, ...rows.map((row) => [...(row[column] ?? '')].length)),
  );
  const line = (cells: readonly string[]): string =>
    `| ${cells.map((text, column) => text + ' '.repeat((widths[column] ?? 0) - [...text].length)).join(' | ')} |`;
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

const begin = '<!-- options-table:begin (generated from the options schema: pnpm docs:options) -->';
const end = '<!-- options-table:end -->';

/**
 * A README with its options table replaced by the current one; `undefined`
 * when the README has no table markers.
 */
export function withOptionsTable<Schema extends z.ZodObject>(
  readme: string,
  cli: ServerCli<Schema>,
): string | undefined {
  const start = readme.indexOf(begin);
  const stop = readme.indexOf(end);
  if (start === -1 || stop < start) return undefined;
  return `${readme.slice(0, start + begin.length)}\n${formatOptionsTable(cli)}\n${readme.slice(stop)}`;
}

/** The markers a README puts around its generated options table. */
export const optionsTableMarkers: { begin: string; end: string } = { begin, end };
