import { ToolError } from '@toolshed/mcp-core';

export interface TextEdit {
  oldText: string;
  newText: string;
}

function leadingSpace(line: string): string {
  return /^\s*/.exec(line)?.[0] ?? '';
}

/**
 * Applies edits in order, as the reference server does: the first exact
 * occurrence of `oldText` is replaced; failing that, a run of lines equal
 * to it once each line is trimmed, with the new lines re-indented to where
 * the match was. Text is compared with `\n` line ends.
 */
export function applyEdits(content: string, edits: readonly TextEdit[]): string {
  let modified = content;
  for (const [index, edit] of edits.entries()) {
    const oldText = edit.oldText.replaceAll('\r\n', '\n');
    const newText = edit.newText.replaceAll('\r\n', '\n');
    if (oldText === '') throw new ToolError(`Edit ${index + 1} has an empty oldText; say which text to replace.`);
    const at = modified.indexOf(oldText);
    if (at !== -1) {
      modified = modified.slice(0, at) + newText + modified.slice(at + oldText.length);
      continue;
    }
    const oldLines = oldText.split('\n');
    const lines = modified.split('\n');
    let matched = false;
    for (let start = 0; start + oldLines.length <= lines.length; start++) {
      if (!oldLines.every((line, offset) => line.trim() === (lines[start + offset] as string).trim())) continue;
      const indent = leadingSpace(lines[start] as string);
      const replacement = newText.split('\n').map((line, offset) => {
        if (offset === 0) return indent + line.trimStart();
        const oldIndent = leadingSpace(oldLines[offset] ?? '');
        const newIndent = leadingSpace(line);
        if (oldIndent !== '' && newIndent !== '') {
          return indent + ' '.repeat(Math.max(0, newIndent.length - oldIndent.length)) + line.trimStart();
        }
        return line;
      });
      lines.splice(start, oldLines.length, ...replacement);
      modified = lines.join('\n');
      matched = true;
      break;
    }
    if (!matched) {
      throw new ToolError(
        `Could not find exact match for edit:\n${edit.oldText}\n` +
          `(edit ${index + 1} of ${edits.length}; nothing was changed. Read the file again and copy the text exactly.)`,
      );
    }
  }
  return modified;
}
