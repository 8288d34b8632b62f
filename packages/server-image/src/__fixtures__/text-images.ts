import sharp from 'sharp';

/** The text the OCR tests render and expect back. */
export const sampleLines: readonly string[] = [
  'The quick brown fox jumps over',
  'the lazy dog: 0123456789.',
  'Invoice 42 due 2026-03-01',
];

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Lines of black DejaVu Sans on white at `fontSize` px, rendered from SVG to PNG by sharp (librsvg). */
export async function renderedText(
  fontSize: number,
  options: { lines?: readonly string[]; rotate?: number } = {},
): Promise<Buffer> {
  const lines = options.lines ?? sampleLines;
  const lineHeight = Math.round(fontSize * 1.5);
  const width = Math.round(fontSize * 0.62 * Math.max(...lines.map((line) => line.length)) + fontSize);
  const height = lineHeight * lines.length + fontSize;
  const texts = lines
    .map(
      (line, index) =>
        `<text x="${fontSize / 2}" y="${lineHeight * (index + 1)}" font-family="DejaVu Sans, sans-serif" font-size="${fontSize}">${escapeXml(line)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${texts}</svg>`;
  const image = sharp(Buffer.from(svg));
  return (options.rotate === undefined ? image : image.rotate(options.rotate, { background: '#fff' })).png().toBuffer();
}

/** Edit distance between two strings, by characters. */
function levenshtein(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row++) {
    const current = [row];
    for (let column = 1; column <= right.length; column++) {
      const substitution = (previous[column - 1] ?? 0) + (left[row - 1] === right[column - 1] ? 0 : 1);
      current.push(Math.min((previous[column] ?? 0) + 1, (current[column - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}

/** Character error rate: edits to turn what was read into the truth, per character of the truth; spacing normalised. */
export function characterErrorRate(read: string, truth: string): number {
  const plain = (text: string) => text.replace(/\s+/g, ' ').trim();
  return levenshtein(plain(read), plain(truth)) / plain(truth).length;
}
