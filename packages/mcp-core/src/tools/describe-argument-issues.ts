function describePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(the arguments object)';
  return path
    .map((key) => (typeof key === 'number' ? `[${key}]` : String(key)))
    .join('.')
    .replaceAll('.[', '[');
}

/**
 * Says, field by field, what was wrong with a tool's (or a prompt's)
 * arguments and what was expected, so that the model can correct its call
 * (SEP-1303). `subject` names what was called: `tool "add"`.
 */
export function describeArgumentIssues(
  subject: string,
  issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[],
): string {
  const lines = issues.slice(0, 20).map((issue) => `- ${describePath(issue.path)}: ${issue.message}`);
  if (issues.length > 20) lines.push(`- …and ${issues.length - 20} more`);
  const verb = subject.startsWith('tool ') ? 'call the tool' : 'try';
  return `Invalid arguments for ${subject}:\n${lines.join('\n')}\nFix these fields and ${verb} again.`;
}
