import { type CliSpec, flagName } from './cli-spec.ts';

/** The --help text, generated from the option definitions so it cannot drift from them. */
export function formatCliHelp(spec: CliSpec): string {
  const rows: [string, string][] = Object.entries(spec.options).map(([key, option]) => {
    const placeholder =
      option.type === 'boolean' ? '' : ` ${option.placeholder ?? (option.type === 'number' ? 'N' : 'VALUE')}`;
    const notes: string[] = [];
    if (option.type === 'list') notes.push('repeatable');
    if (option.required) notes.push('required');
    if (option.default !== undefined) notes.push(`default: ${JSON.stringify(option.default)}`);
    if (option.env !== undefined) notes.push(`env: ${option.env}`);
    const suffix = notes.length > 0 ? ` (${notes.join('; ')})` : '';
    return [`${flagName(key)}${placeholder}`, `${option.description}${suffix}`];
  });
  rows.push(['--help', 'Show this help and exit'], ['--version', 'Print the version and exit']);
  const width = Math.max(...rows.map(([flag]) => flag.length)) + 2;
  const lines = [
    `${spec.name} ${spec.version} — ${spec.summary}`,
    '',
    `Usage: ${spec.name} [options]${spec.operands === undefined ? '' : ` ${spec.operands.placeholder}`}`,
    ...(spec.operands === undefined ? [] : [`  ${spec.operands.placeholder}: ${spec.operands.description}`]),
    'Serves the Model Context Protocol over stdio (one JSON-RPC message per line).',
    '',
    'Options:',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}${text}`),
  ];
  if (spec.environment !== undefined && spec.environment.length > 0) {
    const envWidth = Math.max(...spec.environment.map(({ name }) => name.length)) + 2;
    lines.push(
      '',
      'Environment:',
      ...spec.environment.map(({ name, description }) => `  ${name.padEnd(envWidth)}${description}`),
    );
  }
  if (spec.examples !== undefined && spec.examples.length > 0) {
    lines.push('', 'Examples:', ...spec.examples.map((example) => `  ${example}`));
  }
  return `${lines.join('\n')}\n`;
}
