import type * as z from 'zod';

function describePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(the arguments object)';
  return path
    .map((key) => (typeof key === 'number' ? `[${key}]` : String(key)))
    .join('.')
    .replaceAll('.[', '[');
}

/**
 * Says, field by field, what was wrong with a tool's arguments and what was
 * expected, so that the model can correct its call (SEP-1303).
 */
export function describeArgumentIssues(toolName: string, issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.slice(0, 20).map((issue) => `- ${describePath(issue.path)}: ${issue.message}`);
  if (issues.length > 20) lines.push(`- …and ${issues.length - 20} more`);
  return `Invalid arguments for tool "${toolName}":\n${lines.join('\n')}\nFix these fields and call the tool again.`;
}
