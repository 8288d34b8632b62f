import { pathToFileURL } from 'node:url';
import type { PathGuard } from '@toolshed/guards';
import { ToolError } from '@toolshed/mcp-core';
import type { EncodedImage } from './fit-preview.ts';
import { extensionOf, formatOfName } from './output-format.ts';

export type WrittenFile = { path: string; uri: string; bytes: number };

const unsafeName = /[/\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

function checkName(name: string, image: EncodedImage): string {
  if (unsafeName.test(name) || name.startsWith('.') || name.trim() !== name) {
    throw new ToolError(
      `output_name "${name.slice(0, 100)}" must be a plain file name: no directories, no leading dot, no control characters.`,
    );
  }
  return formatOfName(name) === undefined ? `${name}.${extensionOf(image.format)}` : name;
}

async function sameBytes(path: string, data: Buffer): Promise<boolean> {
  try {
    // Loaded where used, not imported: node:fs/promises and node:crypto stay off the server's start-up path.
    const { readFile } = process.getBuiltinModule('node:fs/promises');
    return (await readFile(path)).equals(data);
  } catch {
    return false;
  }
}

/**
 * Writes the full-size result into the output directory, atomically (a
 * temporary file renamed into place), and says where. Files are only ever
 * added: a name that is taken by other bytes is refused, and the same
 * result written again is left as it is, so a repeated call is harmless.
 * Without a name, the file is named after the input, the steps and a digest
 * of the bytes.
 */
export async function writeResult(
  outputs: PathGuard,
  image: EncodedImage,
  naming: { name: string | undefined; stem: string; operations: readonly string[] },
): Promise<WrittenFile> {
  const { createHash } = process.getBuiltinModule('node:crypto');
  const digest = createHash('sha256').update(image.data).digest('hex').slice(0, 10);
  const name =
    naming.name === undefined
      ? `${naming.stem}-${naming.operations.join('-') || 'converted'}-${digest}.${extensionOf(image.format)}`
      : checkName(naming.name, image);
  const target = await outputs.resolve(name, { access: 'write' });
  if (!(target.exists && (await sameBytes(target.path, image.data)))) {
    try {
      await outputs.writeFile(target, image.data, { exclusive: true });
    } catch (error) {
      if (error instanceof ToolError && /already exists/.test(error.message)) {
        throw new ToolError(`${name} already exists in the output directory; choose another output_name.`);
      }
      throw error;
    }
  }
  return { path: target.path, uri: pathToFileURL(target.path).href, bytes: image.data.length };
}
