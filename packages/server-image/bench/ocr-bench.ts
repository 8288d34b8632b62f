/**
 * OCR through the server (extract_text over an in-memory MCP connection,
 * tesseract.js in its worker thread) against Debian's `tesseract` CLI on the
 * same PNG files with the same English data (tessdata_fast), interleaved call
 * by call in one run. Reports the median seconds, seconds per megapixel and
 * the ratio server ÷ CLI.
 *
 *   pnpm --filter @toolshed/server-image bench
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBareClient } from '@toolshed/mcp-core/testing';
import sharp from 'sharp';
import { createImageServer } from '../src/index.ts';

const cli = spawnSync('tesseract', ['--version'], { encoding: 'utf8' });
if (cli.status !== 0) {
  console.log('OCR bench skipped: no tesseract CLI (apt-get install tesseract-ocr tesseract-ocr-eng)');
  process.exit(0);
}

const directory = mkdtempSync(join(tmpdir(), 'toolshed-ocr-bench-'));
const words = 'the quick brown fox jumps over a lazy dog while invoice 4217 is due on 2026-03-01'.split(' ');

/** A page of `lines` lines of 16 px DejaVu Sans, black on white, `width` pixels wide. */
async function writePage(name: string, width: number, lines: number): Promise<{ path: string; megapixels: number }> {
  const lineHeight = 26;
  const perLine = Math.floor(width / 105);
  const text = Array.from({ length: lines }, (_, line) =>
    Array.from({ length: perLine }, (_, index) => words[(line * 7 + index) % words.length]).join(' '),
  );
  const height = lineHeight * (lines + 1);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${text
    .map(
      (line, index) =>
        `<text x="20" y="${lineHeight * (index + 1)}" font-family="DejaVu Sans" font-size="16">${line}</text>`,
    )
    .join('')}</svg>`;
  const path = join(directory, name);
  await sharp(Buffer.from(svg)).png().toFile(path);
  return { path, megapixels: (width * height) / 1e6 };
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function timed(once: () => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now();
  await once();
  return (performance.now() - started) / 1000;
}

const pages = [
  { name: 'page of 20 lines, 1200 px wide', ...(await writePage('small.png', 1200, 20)) },
  { name: 'page of 60 lines, 2000 px wide', ...(await writePage('large.png', 2000, 60)) },
];
const server = createImageServer({ directories: [directory] });
const client = await connectBareClient(server);
const runs = 5;
console.log(
  `${cli.stdout.split('\n')[0]} (Debian) vs tesseract.js in toolshed-image, same tessdata_fast eng, ${runs} runs each`,
);
console.log('');
console.log('| image | megapixels | CLI median | server median | CLI s/MP | server s/MP | ratio |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const page of pages) {
  const viaServer = () => client.callTool('extract_text', { path: page.path });
  // The CLI runs as one would from a script: a process per image, LSTM only, one thread like the WASM engine.
  const viaCli = () =>
    execFileSync('tesseract', [page.path, '-', '-l', 'eng', '--oem', '1'], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  await viaServer();
  viaCli();
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let index = 0; index < runs; index++) {
    if (index % 2 === 0) {
      theirs.push(await timed(viaCli));
      ours.push(await timed(viaServer));
    } else {
      ours.push(await timed(viaServer));
      theirs.push(await timed(viaCli));
    }
  }
  const [cliSeconds, serverSeconds] = [median(theirs), median(ours)];
  console.log(
    `| ${page.name} | ${page.megapixels.toFixed(2)} | ${cliSeconds.toFixed(2)} s | ${serverSeconds.toFixed(2)} s | ${(cliSeconds / page.megapixels).toFixed(2)} | ${(serverSeconds / page.megapixels).toFixed(2)} | ${(serverSeconds / cliSeconds).toFixed(2)}× |`,
  );
}
await server.close();
rmSync(directory, { recursive: true, force: true });
