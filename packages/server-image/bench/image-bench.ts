/**
 * Resize, convert and thumbnail through the server over an in-memory MCP
 * connection against raw sharp doing the same operation on the same file,
 * interleaved call by call in one run. Reports the median and p90 per call
 * and the ratio server ÷ raw.
 *
 *   pnpm --filter @toolshed/server-image bench
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectBareClient } from '@toolshed/mcp-core/testing';
import sharp from 'sharp';
import { createImageServer } from '../src/index.ts';

const directory = mkdtempSync(join(tmpdir(), 'toolshed-image-bench-'));

/** A photo-like JPEG: a gradient under noise, so the codecs do real work. */
async function writePhoto(name: string, width: number, height: number): Promise<string> {
  const path = join(directory, name);
  await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 30 } },
  })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#204080"/><stop offset="1" stop-color="#e0a040"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)" opacity="0.7"/></svg>`,
        ),
      },
    ])
    .jpeg({ quality: 90 })
    .toFile(path);
  return path;
}

interface Case {
  name: string;
  tool: string;
  arguments: Record<string, unknown>;
  raw: () => Promise<Buffer>;
  calls: number;
}

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] as number;
}

async function timed(once: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await once();
  return performance.now() - started;
}

const large = await writePhoto('large.jpg', 4000, 3000);
// Within the 1568 px preview edge, so the server returns exactly what raw sharp makes.
const medium = await writePhoto('medium.jpg', 1500, 1000);
// The server decodes with these settings; raw sharp gets the same.
const decode = { autoOrient: true, failOn: 'error', sequentialRead: true } as const;

const cases: Case[] = [
  {
    name: 'resize 4000×3000 JPEG → 1024 wide JPEG',
    tool: 'process_image',
    arguments: { path: 'large.jpg', operations: [{ op: 'resize', width: 1024 }] },
    raw: () => sharp(large, decode).resize({ width: 1024, withoutEnlargement: true }).jpeg().toBuffer(),
    calls: 40,
  },
  {
    name: 'convert 1500×1000 JPEG → WebP',
    tool: 'process_image',
    arguments: { path: 'medium.jpg', format: 'webp' },
    raw: () => sharp(medium, decode).webp().toBuffer(),
    calls: 40,
  },
  {
    name: 'thumbnail 4000×3000 JPEG → 256² WebP (attention)',
    tool: 'process_image',
    arguments: { path: 'large.jpg', operations: [{ op: 'thumbnail', size: 256 }], format: 'webp' },
    raw: () =>
      sharp(large, decode)
        .resize({ width: 256, height: 256, fit: 'cover', position: sharp.strategy.attention, withoutEnlargement: true })
        .webp()
        .toBuffer(),
    calls: 40,
  },
];

const server = createImageServer({ directories: [directory] });
const client = await connectBareClient(server);
console.log(
  `node ${process.version}, sharp ${sharp.versions.sharp} (libvips ${sharp.versions.vips}), ${sharp.concurrency()} libvips threads`,
);
console.log('raw sharp vs toolshed-image over an in-memory MCP connection, interleaved call by call');
console.log('');
console.log('| operation | raw median | server median | raw p90 | server p90 | ratio (median) |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const benchCase of cases) {
  const call = () => client.callTool(benchCase.tool, benchCase.arguments);
  for (let warm = 0; warm < 5; warm++) {
    await benchCase.raw();
    await call();
  }
  const raw: number[] = [];
  const ours: number[] = [];
  for (let index = 0; index < benchCase.calls; index++) {
    // Alternate which goes first, so neither always runs on a warmer cache.
    if (index % 2 === 0) {
      raw.push(await timed(benchCase.raw));
      ours.push(await timed(call));
    } else {
      ours.push(await timed(call));
      raw.push(await timed(benchCase.raw));
    }
  }
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(
    `| ${benchCase.name} | ${ms(percentile(raw, 0.5))} | ${ms(percentile(ours, 0.5))} | ${ms(percentile(raw, 0.9))} | ${ms(percentile(ours, 0.9))} | ${(percentile(ours, 0.5) / percentile(raw, 0.5)).toFixed(2)}× |`,
  );
}
await server.close();
rmSync(directory, { recursive: true, force: true });
