import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RealService } from '@toolshed/mcp-core/testing';

/** libheif's own encoder (HEVC by x265), from Debian: the HEIC inputs are made with it at test time. */
export const heifEncoder: RealService = {
  name: 'heif-enc',
  binary: '/usr/bin/heif-enc',
  debianPackage: 'libheif-examples',
};

/** `png` encoded as HEIC by heif-enc, as a phone would store it. */
export function heicOf(png: Buffer, quality = 60): Buffer {
  const directory = mkdtempSync(join(tmpdir(), 'toolshed-heic-'));
  try {
    writeFileSync(join(directory, 'in.png'), png);
    execFileSync(
      heifEncoder.binary,
      ['-q', String(quality), join(directory, 'in.png'), '-o', join(directory, 'out.heic')],
      {
        stdio: 'ignore',
      },
    );
    return readFileSync(join(directory, 'out.heic'));
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * A real HEIC whose image spatial extents ('ispe', the size every reader trusts) declare `width`×`height`: every
 * one of them, as heif-enc writes one for the coded image and one for the picture cropped from it.
 */
export function heicDeclaring(heic: Buffer, width: number, height: number): Buffer {
  const patched = Buffer.from(heic);
  let patchedBoxes = 0;
  for (let at = patched.indexOf('ispe', 0, 'latin1'); at >= 0; at = patched.indexOf('ispe', at + 1, 'latin1')) {
    // 'ispe', then version and flags (4 bytes), then width and height.
    patched.writeUInt32BE(width, at + 8);
    patched.writeUInt32BE(height, at + 12);
    patchedBoxes++;
  }
  if (patchedBoxes === 0) throw new Error('no ispe box');
  return patched;
}
