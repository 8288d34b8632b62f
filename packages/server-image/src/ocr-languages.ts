import { ToolError } from '@toolshed/mcp-core';

/** Where tesseract.js reads a call's language data from, and whether the files there are gzipped. */
export interface OcrLanguageData {
  /** The languages, as tesseract joins them: `eng+deu`. */
  languages: string;
  directory: string;
  gzip: boolean;
}

// Tesseract's own language codes: `eng`, `chi_sim`, `deu_latf`; up to four at once.
const languagePattern = /^[a-z]{3}(?:_[a-z]{3,5})?(?:\+[a-z]{3}(?:_[a-z]{3,5})?){0,3}$/;

/** The English data shipped in the package (tessdata_fast, gzipped): nothing is downloaded. */
export function bundledLanguageDirectory(): string {
  const { fileURLToPath } = process.getBuiltinModule('node:url');
  return fileURLToPath(new URL('../tessdata', import.meta.url));
}

const bundledLanguages = new Set(['eng']);

async function filesIn(directory: string): Promise<Map<string, boolean>> {
  const { readdir } = process.getBuiltinModule('node:fs/promises');
  const found = new Map<string, boolean>();
  for (const name of await readdir(directory).catch(() => [])) {
    const match = /^([a-z]{3}(?:_[a-z]{3,5})?)\.traineddata(\.gz)?$/.exec(name);
    if (match?.[1] !== undefined) found.set(match[1], match[2] !== undefined);
  }
  return found;
}

/**
 * Finds every language of a call in one directory: the operator's language
 * directory when it holds them all (it may hold its own `eng` too), else the
 * bundled English. tesseract.js reads all of a worker's languages from one
 * path, so a mix of the two is refused with what to do.
 */
export async function findLanguageData(
  languages: string,
  operatorDirectory: string | undefined,
): Promise<OcrLanguageData> {
  if (!languagePattern.test(languages)) {
    throw new ToolError(
      `language "${languages.slice(0, 64)}" is not Tesseract language codes: give one such as eng, or up to four joined by + (eng+deu).`,
    );
  }
  const wanted = languages.split('+');
  if (operatorDirectory !== undefined) {
    const files = await filesIn(operatorDirectory);
    const gzipped = new Set(wanted.map((code) => files.get(code)));
    if (!gzipped.has(undefined) && gzipped.size === 1) {
      return { languages, directory: operatorDirectory, gzip: gzipped.has(true) };
    }
    if (!wanted.every((code) => bundledLanguages.has(code))) {
      const missing = wanted.filter((code) => !files.has(code) && !bundledLanguages.has(code));
      const available = [...new Set([...bundledLanguages, ...files.keys()])].sort().join(', ');
      throw new ToolError(
        missing.length > 0
          ? `No OCR data for ${missing.join(', ')}; this server has: ${available}.`
          : `${languages} mixes languages from different places; use languages from one of: ${available} (all of them in the language directory, or eng alone).`,
      );
    }
  } else if (!wanted.every((code) => bundledLanguages.has(code))) {
    throw new ToolError(
      `This server reads only eng; the operator can add languages with --ocr-languages-dir (files such as deu.traineddata).`,
    );
  }
  return { languages, directory: bundledLanguageDirectory(), gzip: true };
}
