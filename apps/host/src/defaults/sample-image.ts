function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  // Loaded here, not imported: node:zlib stays off the host's start-up path.
  const { crc32 } = process.getBuiltinModule('node:zlib');
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 320×200 RGB PNG: a sky-to-sea gradient with a sun, for the sample workspace. */
export function samplePng(width = 320, height = 200): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const sun = (x - width * 0.7) ** 2 + (y - height * 0.3) ** 2 < (height * 0.12) ** 2;
      const sea = y > height * 0.6;
      const at = 1 + x * 3;
      row[at] = sun ? 255 : sea ? 20 : Math.round(90 + (120 * y) / height);
      row[at + 1] = sun ? 200 : sea ? Math.round(60 + (60 * y) / height) : Math.round(150 + (60 * y) / height);
      row[at + 2] = sun ? 40 : sea ? 140 : 235;
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2; // truecolour
  const { deflateSync } = process.getBuiltinModule('node:zlib');
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
