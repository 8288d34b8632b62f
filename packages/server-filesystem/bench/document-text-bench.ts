/**
 * PDF text against poppler's pdftotext, side by side in one run: the text of
 * a generated 200-page PDF (40 lines a page) through read_document (our bin
 * over stdio, the official SDK client; pdf.js in the server's document
 * worker, kept warm between calls) and through `pdftotext FILE -` (a process
 * per call). pdf.js in this process, without the server or its worker, is
 * timed too, to show what the worker and the protocol add. Rounds alternate which goes first; medians and the
 * range. No bar: the figure is reported.
 *
 *   node bench/document-text-bench.ts
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makePdf } from '../src/__fixtures__/document-files.ts';
import { pdfText } from '../src/pdf-text.ts';
import { dataDirectory, median, ourBin } from './generated-tree.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 9);
const pageCount = 200;
const pdftotext = '/usr/bin/pdftotext';
const run = promisify(execFile);

if (!existsSync(pdftotext)) {
  console.log('document-text-bench: skipped, pdftotext is missing (apt-get install poppler-utils)');
  process.exit(0);
}

const vocabulary = ['ledger', 'quarter', 'revenue', 'audit', 'margin', 'forecast', 'budget', 'invoice'];
const directory = join(dataDirectory, 'documents');
const file = join(directory, `report-${pageCount}-pages.pdf`);
if (!existsSync(file)) {
  mkdirSync(directory, { recursive: true });
  const pages = Array.from({ length: pageCount }, (_, page) =>
    Array.from({ length: 40 }, (_, line) =>
      Array.from({ length: 8 }, (_, word) => vocabulary[(page * 7 + line * 3 + word) % vocabulary.length]).join(' '),
    ),
  );
  writeFileSync(file, makePdf(pages));
}

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [ourBin, directory, '--max-document-pages', String(pageCount), '--max-read-bytes', String(16 * 1024 * 1024)],
  stderr: 'inherit',
});
const client = new Client({ name: 'bench', version: '1' });
await client.connect(transport);

// The document's own words, so markers and the fence notice are not counted.
const wordCount = (text: string) => text.split(/\s+/).filter((word) => vocabulary.includes(word)).length;

const sides = {
  async pdftotext() {
    const { stdout } = await run(pdftotext, [file, '-'], { maxBuffer: 64 * 1024 * 1024 });
    return wordCount(stdout);
  },
  async ours() {
    const result = (await client.callTool({ name: 'read_document', arguments: { path: file } })) as {
      content: { text: string }[];
      isError?: boolean;
      structuredContent?: { last?: number };
    };
    if (result.isError || result.structuredContent?.last !== pageCount) {
      throw new Error(`read_document: ${result.content[0]?.text.slice(0, 300)}`);
    }
    return wordCount(result.content[0]?.text ?? '');
  },
  async inProcess() {
    const text = await pdfText({
      format: 'pdf',
      bytes: new Uint8Array(readFileSync(file)),
      first: 1,
      maxParts: pageCount,
      maxCharacters: Number.POSITIVE_INFINITY,
    });
    return wordCount(text.parts.map((part) => part.text).join('\n'));
  },
};
type Side = keyof typeof sides;

const times: Record<Side, number[]> = { pdftotext: [], ours: [], inProcess: [] };
const words: Partial<Record<Side, number>> = {};
for (const side of Object.keys(sides) as Side[]) words[side] = await sides[side]();
const expected = pageCount * 40 * 8;
for (const [side, count] of Object.entries(words)) {
  if (count !== expected) throw new Error(`${side} found ${count} words, not ${expected}`);
}
const orders: Side[][] = [
  ['pdftotext', 'ours', 'inProcess'],
  ['ours', 'inProcess', 'pdftotext'],
  ['inProcess', 'pdftotext', 'ours'],
];
for (let round = 0; round < rounds; round++) {
  for (const side of orders[round % orders.length] as Side[]) {
    const began = performance.now();
    await sides[side]();
    times[side].push(performance.now() - began);
  }
}
await client.close();

const pdftotextVersion = (await run(pdftotext, ['-v']).catch((error: { stderr: string }) => error)).stderr
  .split('\n')[0]
  ?.trim();
console.log(
  `Node ${process.version}; ${pdftotextVersion}; ours: ${ourBin.endsWith('.ts') ? 'from source' : 'built bin'}; ` +
    `${pageCount} pages, ${expected} words, ${readFileSync(file).byteLength} bytes; ${rounds} rounds\n`,
);
const anchor = median(times.pdftotext);
console.log('| side | median ms | range ms | / pdftotext |');
console.log('|---|---:|---:|---:|');
const labels: Record<Side, string> = {
  pdftotext: '`pdftotext FILE -` (a process a call)',
  ours: '`read_document` (bin over stdio, warm worker)',
  inProcess: 'pdf.js in process (no server, no worker)',
};
for (const side of ['pdftotext', 'ours', 'inProcess'] as const) {
  const sorted = [...times[side]].sort((a, b) => a - b);
  const middle = median(sorted);
  console.log(
    `| ${labels[side]} | ${middle.toFixed(1)} | ${sorted[0]?.toFixed(1)}–${sorted.at(-1)?.toFixed(1)} | ${(middle / anchor).toFixed(2)}x |`,
  );
}
