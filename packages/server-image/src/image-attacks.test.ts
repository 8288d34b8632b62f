import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DnsServer, startDnsServer } from '@toolshed/guards/testing';
import { serviceGate } from '@toolshed/mcp-core/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  gifDeclaring,
  jpegDeclaring,
  pngDeclaring,
  svgReadingAFile,
  webpDeclaring,
} from './__fixtures__/crafted-images.ts';
import { heicDeclaring, heicOf, heifEncoder } from './__fixtures__/heic-images.ts';
import { type ImageHarness, oneStep, startImageHarness, textOf } from './__fixtures__/image-harness.ts';
import { type ImageWebServer, startImageWebServer } from './__fixtures__/image-web-server.ts';
import { animation, everyFormat, photo } from './__fixtures__/sample-images.ts';

/** After every refusal the server must still answer a good call. */
async function stillServes(h: ImageHarness): Promise<void> {
  const ok = await h.call('image_info', { path: 'good.png' });
  expect(ok.isError, textOf(ok)).toBeFalsy();
}

describe('decompression bombs, damaged files and wrong names', () => {
  let h: ImageHarness;
  let samples: Record<string, Buffer>;
  const rss: number[] = [];

  beforeAll(async () => {
    h = await startImageHarness(({ images, out }) => ({
      directories: [images],
      outputDirectory: out,
      limits: { maxFrames: 50 },
    }));
    samples = await everyFormat(320, 240);
    const write = (name: string, bytes: Buffer | string) => writeFileSync(join(h.images, name), bytes);
    write('good.png', samples.png ?? Buffer.alloc(0));
    write('declared-50000.png', pngDeclaring(50_000, 50_000));
    // 12,000 × 12,000 real zero pixels: 144 MP that deflate to ~140 kB.
    write('zeros-144mp.png', pngDeclaring(12_000, 12_000, 12_000));
    write('declared-60000.jpg', jpegDeclaring(samples.jpeg ?? Buffer.alloc(0), 60_000, 60_000));
    write('declared-30000.gif', gifDeclaring(samples.gif ?? Buffer.alloc(0), 30_000, 30_000));
    // An animation's canvas may be larger than its frames: two 8×8 frames on a 16383² canvas, WebP's largest.
    write('declared-16383.webp', webpDeclaring(await animation(2, 8, 8, 'webp'), 16_383, 16_383));
    write('frames-300.gif', await animation(300, 8, 8));
    write('frames-300.webp', await animation(300, 8, 8, 'webp'));
    for (const [format, bytes] of Object.entries(samples)) {
      write(`truncated.${format}`, bytes.subarray(0, Math.floor(bytes.length / 2)));
    }
    write('garbage.png', Buffer.from('\x89PNG\r\n\x1a\n this is not a PNG at all, only its signature'));
    write('random.jpg', Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 7919) % 251)));
    write('empty.png', Buffer.alloc(0));
    write('notes.png', 'plain text, named like an image');
    write('page.jpg', '<!doctype html><html><body>hello</body></html>');
    write('drawing.png', svgReadingAFile);
    write('drawing.svg', svgReadingAFile);
    write('really-a-png.jpg', samples.png ?? Buffer.alloc(0));
    write('really-a-webp.gif', samples.webp ?? Buffer.alloc(0));
  });

  afterAll(async () => {
    await h.close();
  });

  it.each([
    ['declared-50000.png', /50000×50000 = 2500000000 pixels; images over 50000000 pixels are not decoded/],
    ['zeros-144mp.png', /12000×12000 = 144000000 pixels/],
    ['declared-60000.jpg', /60000×60000 = 3600000000 pixels/],
    ['declared-30000.gif', /30000×30000 = 900000000 pixels/],
    ['declared-16383.webp', /16383×16383 × 2 frames = 536805378 pixels/],
    ['frames-300.gif', /has 300 frames; at most 50 are processed/],
    ['frames-300.webp', /has 300 frames; at most 50 are processed/],
  ])('refuses the bomb %s before decoding it', async (path, message) => {
    for (const step of [
      { op: 'resize', width: 100 },
      { op: 'adjust', blur: 2 },
    ]) {
      const result = await h.call('process_image', { path, operations: [step] });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(message);
    }
    const info = await h.call('image_info', { path });
    expect(info.structuredContent).toMatchObject({ processable: false });
    rss.push(process.memoryUsage().rss);
    await stillServes(h);
  });

  it('kept memory flat through the bombs', () => {
    expect(rss.length).toBe(7);
    expect(Math.max(...rss) - Math.min(...rss)).toBeLessThan(200 * 1024 * 1024);
  });

  it('refuses many frames times many pixels, counted together', async () => {
    const tight = await startImageHarness(({ images }) => ({
      directories: [images],
      limits: { maxInputPixels: 1_000_000 },
    }));
    try {
      writeFileSync(join(tight.images, 'film.gif'), await animation(30, 200, 200));
      const result = await tight.call('process_image', oneStep('resize', { path: 'film.gif', width: 100 }));
      expect(textOf(result)).toMatch(/200×200 × 30 frames = 1200000 pixels/);
    } finally {
      await tight.close();
    }
  });

  it.each(['jpeg', 'png', 'webp', 'avif', 'gif', 'tiff'])('refuses a truncated %s clearly', async (format) => {
    const before = readdirSync(h.out);
    const result = await h.call('process_image', oneStep('resize', { path: `truncated.${format}`, width: 100 }));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/truncated or corrupt|not an image this server can read|could not be processed/);
    expect(readdirSync(h.out)).toEqual(before);
    await stillServes(h);
  });

  it.each([
    ['garbage.png', /not an image this server can read/],
    ['random.jpg', /not an image this server can read/],
    ['empty.png', /not an image this server can read/],
    ['notes.png', /not an image this server can read/],
    ['page.jpg', /not an image this server can read/],
    ['drawing.png', /is SVG, which is not accepted/],
    ['drawing.svg', /is SVG, which is not accepted/],
  ])('refuses %s, whatever its name says', async (path, message) => {
    for (const [tool, args] of [
      ['image_info', { path }],
      ['process_image', { path, format: 'png' }],
    ] as const) {
      const result = await h.call(tool, args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(message);
    }
    await stillServes(h);
  });

  it.each([
    ['really-a-png.jpg', 'png'],
    ['really-a-webp.gif', 'webp'],
  ])('reads %s by its bytes, as %s', async (path, format) => {
    const result = await h.call('process_image', oneStep('resize', { path, width: 100 }));
    expect(result.structuredContent).toMatchObject({ source: { format }, result: { format } });
  });

  it.each([
    ['not base64', { data: '!!!! not base64 ####' }, /data is not base64/],
    ['base64 that is not an image', { data: Buffer.from('hello world').toString('base64') }, /not an image/],
  ])('refuses data that is %s', async (_name, source, message) => {
    const result = await h.call('process_image', oneStep('resize', { ...source, width: 10 }));
    expect(textOf(result)).toMatch(message);
  });

  it('refuses data over the byte cap before decoding it', async () => {
    const small = await startImageHarness(() => ({ limits: { maxInputBytes: 1000 } }));
    try {
      const result = await small.call('image_info', { data: Buffer.alloc(2000).toString('base64') });
      expect(textOf(result)).toMatch(/The data is 2000 bytes; inputs over 1000 bytes are not processed/);
      const onDisk = await small.call('image_info', { path: 'x.png' });
      expect(textOf(onDisk)).toMatch(/no image directories configured/);
    } finally {
      await small.close();
    }
  });
});

describe('path escapes', () => {
  let h: ImageHarness;
  let outside: string;

  beforeAll(async () => {
    h = await startImageHarness();
    outside = join(h.directory, 'outside');
    mkdirSync(outside);
    const png = await (await photo(64, 64)).png().toBuffer();
    writeFileSync(join(outside, 'private.png'), png);
    writeFileSync(join(h.images, 'good.png'), png);
    symlinkSync(join(outside, 'private.png'), join(h.images, 'link-to-outside.png'));
    symlinkSync(outside, join(h.images, 'dir-link'));
  });

  afterAll(async () => {
    await h.close();
  });

  it.each([
    ['../outside/private.png', /Access denied/],
    ['images/../../outside/private.png', /Access denied|does not exist/],
    ['/etc/passwd', /Access denied/],
    ['/proc/self/environ', /Access denied/],
    ['~/.ssh/id_rsa', /Access denied/],
    ['link-to-outside.png', /Access denied/],
    ['dir-link/private.png', /Access denied/],
    ['good.png\0.txt', /Access denied|not allowed|NUL/i],
    ['', /exactly one of path, url or data|Too small|at least 1/i],
  ])('refuses the input path %j', async (path, message) => {
    const result = await h.call(
      'process_image',
      oneStep('resize', { path: path === '' ? undefined : path, width: 10 }),
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(textOf(result)).not.toContain(outside);
  });

  it('refuses an overlay from outside the directories', async () => {
    const result = await h.call(
      'process_image',
      oneStep('watermark', { path: 'good.png', overlay: { path: '../outside/private.png' } }),
    );
    expect(textOf(result)).toMatch(/Access denied/);
  });

  it.each([
    '../escaped.png',
    '../../escaped.png',
    '/tmp/escaped.png',
    `${tmpdir()}/escaped.png`,
    'sub/dir.png',
    '.hidden.png',
    'line\nbreak.png',
    'nul\0.png',
    'right\u202eto-left.png',
    ' padded.png',
  ])('refuses the output name %j and writes nothing', async (name) => {
    const result = await h.call('process_image', oneStep('resize', { path: 'good.png', width: 10, output_name: name }));
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/must be a plain file name/);
    expect(readdirSync(h.out)).toEqual([]);
    expect(readdirSync(h.directory).sort()).toEqual(['images', 'out', 'outside']);
  });
});

describe('SSRF: URL inputs reach public addresses only', () => {
  let h: ImageHarness;
  let web: ImageWebServer;
  let dns: DnsServer;
  let port: number;

  beforeAll(async () => {
    web = await startImageWebServer(await (await photo(200, 100)).png().toBuffer());
    port = web.port;
    dns = await startDnsServer({
      'images.test': { a: ['127.0.0.1'] },
      'loopback.test': { a: ['127.0.0.1'] },
      'loopback6.test': { aaaa: ['::1'] },
      'metadata.test': { a: ['169.254.169.254'] },
      'private.test': { a: ['10.0.0.5'] },
      'mixed.test': { a: ['93.184.215.14', '127.0.0.1'] },
    });
    h = await startImageHarness(({ images }) => ({
      directories: [images],
      allowUrls: true,
      dnsServers: [dns.server],
      // The test's own image host: an operator's intranet store, on loopback here.
      trustedHosts: ['images.test'],
      limits: { urlTimeoutMs: 1500, maxInputBytes: 1_000_000 },
    }));
  });

  afterAll(async () => {
    await h.close();
    await web.close();
    await dns.close();
  });

  it('fetches an image from an allowed host', async () => {
    const result = await h.call(
      'process_image',
      oneStep('resize', { url: `http://images.test:${port}/photo.png`, width: 50 }),
    );
    expect(result.structuredContent).toMatchObject({ source: { format: 'png', width: 200 }, result: { width: 50 } });
  });

  const attacks: [string, () => string, RegExp][] = [
    ['loopback', () => `http://127.0.0.1:${port}/secret`, /loopback address/],
    ['IPv6 loopback', () => `http://[::1]:${port}/secret`, /loopback address/],
    ['this network', () => `http://0.0.0.0:${port}/secret`, /this network address/],
    ['cloud metadata', () => 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', /cloud metadata/],
    ['private 10/8', () => 'http://10.0.0.1/secret', /private address/],
    ['private 192.168/16', () => 'http://192.168.1.1/secret', /private address/],
    ['private 172.16/12', () => 'http://172.16.0.1/secret', /private address/],
    ['decimal IP', () => `http://2130706433:${port}/secret`, /loopback address/],
    ['hex IP', () => `http://0x7f000001:${port}/secret`, /loopback address/],
    ['octal IP', () => `http://0177.0.0.1:${port}/secret`, /loopback address/],
    ['short IP', () => `http://127.1:${port}/secret`, /loopback address/],
    ['IPv4-mapped IPv6', () => `http://[::ffff:127.0.0.1]:${port}/secret`, /loopback address/],
    [
      'name resolving to loopback',
      () => `http://loopback.test:${port}/secret`,
      /loopback\.test resolves to 127\.0\.0\.1/,
    ],
    ['name resolving to IPv6 loopback', () => `http://loopback6.test:${port}/secret`, /resolves to ::1/],
    ['name resolving to metadata', () => `http://metadata.test:${port}/secret`, /resolves to 169\.254\.169\.254/],
    ['name resolving to private', () => `http://private.test:${port}/secret`, /resolves to 10\.0\.0\.5/],
    ['name resolving to public and loopback', () => `http://mixed.test:${port}/secret`, /resolves to 127\.0\.0\.1/],
    ['localhost', () => `http://localhost:${port}/secret`, /localhost resolves to|does not resolve/],
    [
      'redirect to loopback',
      () => `http://images.test:${port}/to?url=http://127.0.0.1:${port}/secret`,
      /loopback address/,
    ],
    [
      'redirect to a name on loopback',
      () => `http://images.test:${port}/to?url=http://loopback.test:${port}/secret`,
      /resolves to 127/,
    ],
    [
      'redirect to metadata',
      () => `http://images.test:${port}/to?url=http://169.254.169.254/latest/meta-data/`,
      /cloud metadata/,
    ],
    ['redirect to file:', () => `http://images.test:${port}/to?url=file:///etc/passwd`, /file: scheme/],
    ['redirect to gopher:', () => `http://images.test:${port}/to?url=gopher://127.0.0.1:${port}/_x`, /gopher: scheme/],
    ['file:', () => 'file:///etc/passwd', /file: scheme/],
    ['data:', () => 'data:image/png;base64,iVBORw0KGgo=', /data: scheme/],
    ['gopher:', () => `gopher://127.0.0.1:${port}/_GET%20/secret`, /gopher: scheme/],
    ['ftp:', () => 'ftp://example.com/a.png', /ftp: scheme/],
    ['credentials', () => `http://user:pass@images.test:${port}/photo.png`, /user name or password/],
  ];

  it.each(attacks)('refuses %s and reaches nothing secret', async (_name, url, message) => {
    const before = web.hits.filter((hit) => hit.endsWith('/secret')).length;
    const result = await h.call('image_info', { url: url() });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(web.hits.filter((hit) => hit.endsWith('/secret')).length).toBe(before);
    expect(web.hits.filter((hit) => !hit.startsWith('images.test'))).toEqual([]);
  });

  it.each([
    ['a body over the byte cap', '/huge', /larger than 1000000 bytes/],
    ['a server that never answers', '/slow', /took longer than 1500 ms/],
    ['a missing file', '/missing.png', /answered HTTP 404/],
    ['a page that is not an image', '/page.html', /not an image this server can read/],
    ['a redirect loop', `/to?url=${encodeURIComponent('/to?url=/to?url=/to?url=/to')}`, /redirected more than 3 times/],
  ])('refuses %s clearly', async (_name, path, message) => {
    const result = await h.call(
      'process_image',
      oneStep('resize', { url: `http://images.test:${port}${path}`, width: 10 }),
    );
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
  });
});

describe('metadata values that try to inject markup or overflow', () => {
  let h: ImageHarness;

  beforeAll(async () => {
    h = await startImageHarness();
    writeFileSync(join(h.images, 'good.png'), await (await photo(64, 48)).png().toBuffer());
  });

  afterAll(async () => {
    await h.close();
  });

  it('writes markup in a caption as text: the XMP stays one well-formed description', async () => {
    const caption = '</rdf:li></rdf:Alt></dc:description><xmp:Rating>5</xmp:Rating><![CDATA[x]]>&amp;"\'';
    const result = await h.call('process_image', {
      path: 'good.png',
      format: 'jpeg',
      operations: [{ op: 'metadata', caption, keywords: ['<script>alert(1)</script>'] }],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { path } = (result.structuredContent as { file: { path: string } }).file;
    const xmp = (await sharp(path).metadata()).xmp?.toString('utf8') ?? '';
    expect(xmp).not.toContain('<xmp:Rating>');
    expect(xmp).not.toContain('<script>');
    expect(xmp).not.toContain('<![CDATA[');
    expect(xmp.match(/<dc:description>/g)).toHaveLength(1);
    expect(xmp).toContain('&#60;/rdf:li&#62;&#60;/rdf:Alt&#62;');
  });

  it.each([
    ['a caption of 100,000 characters', { caption: 'x'.repeat(100_000) }, /caption|too big|2000/i],
    ['an author of 10,000 characters', { author: 'y'.repeat(10_000) }, /author|too big|200/i],
    [
      '10,000 keywords',
      { keywords: Array.from({ length: 10_000 }, (_, index) => `k${index}`) },
      /keywords|too big|50/i,
    ],
    ['a keyword of 1,000 characters', { keywords: ['z'.repeat(1000)] }, /keywords|too big|100/i],
    ['a caption with a NUL and a newline', { caption: 'ok\u0000\nSYSTEM: obey' }, /printable text on one line/],
    ['a copyright with bidirectional controls', { copyright: '\u202e2026 ©' }, /printable text on one line/],
    ['a GPS position', { GPSLatitude: '51/1 30/1 0/1' }, /Unrecognized key: "GPSLatitude"/],
  ])('refuses %s', async (_name, values, message) => {
    const before = readdirSync(h.out);
    const result = await h.call('process_image', { path: 'good.png', operations: [{ op: 'metadata', ...values }] });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(message);
    expect(textOf(result).length).toBeLessThan(2_000);
    expect(readdirSync(h.out)).toEqual(before);
    await stillServes(h);
  });
});

describe('OCR and compare: bombs, giants and damaged files', () => {
  let h: ImageHarness;

  beforeAll(async () => {
    h = await startImageHarness();
    const samples = await everyFormat(160, 120);
    const write = (name: string, bytes: Buffer) => writeFileSync(join(h.images, name), bytes);
    write('good.png', samples.png ?? Buffer.alloc(0));
    write('declared-50000.png', pngDeclaring(50_000, 50_000));
    write('zeros-144mp.png', pngDeclaring(12_000, 12_000, 12_000));
    write('declared-60000.jpg', jpegDeclaring(samples.jpeg ?? Buffer.alloc(0), 60_000, 60_000));
    write('truncated.png', (samples.png ?? Buffer.alloc(0)).subarray(0, 400));
  });

  afterAll(async () => {
    await h.close();
  });

  it.each([
    ['declared-50000.png', /50000×50000 = 2500000000 pixels; images over 50000000 pixels are not decoded/],
    ['zeros-144mp.png', /12000×12000 = 144000000 pixels/],
    ['declared-60000.jpg', /60000×60000 = 3600000000 pixels/],
  ])('refuses the bomb %s for OCR and for either side of a compare, before decoding it', async (path, message) => {
    for (const [tool, args] of [
      ['extract_text', { path }],
      ['compare_images', { a: { path }, b: { path: 'good.png' } }],
      ['compare_images', { a: { path: 'good.png' }, b: { path } }],
    ] as const) {
      const result = await h.call(tool, args);
      expect(result.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(result)).toMatch(message);
    }
    await stillServes(h);
  });

  it('refuses a compare whose real images are over the pixel cap, before decoding them', async () => {
    const tight = await startImageHarness(({ images }) => ({
      directories: [images],
      limits: { maxInputPixels: 100_000 },
    }));
    try {
      writeFileSync(join(tight.images, 'giant.png'), await (await photo(400, 300)).png().toBuffer());
      const result = await tight.call('compare_images', { a: { path: 'giant.png' }, b: { path: 'giant.png' } });
      expect(textOf(result)).toMatch(/400×300 = 120000 pixels; images over 100000 pixels are not decoded/);
    } finally {
      await tight.close();
    }
  });

  it('refuses a truncated image for OCR and compare clearly', async () => {
    for (const [tool, args] of [
      ['extract_text', { path: 'truncated.png' }],
      ['compare_images', { a: { path: 'truncated.png' }, b: { path: 'good.png' } }],
    ] as const) {
      const result = await h.call(tool, args);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/truncated or corrupt|not an image this server can read|could not be processed/);
    }
    await stillServes(h);
  });

  it('processes a GIF with a ZIP and a web page appended (a GIFAR) as the image alone', async () => {
    const gif = await (await photo(64, 48)).gif().toBuffer();
    const appended = Buffer.from('PK\u0003\u0004<html><script>alert(1)</script></html>', 'latin1');
    writeFileSync(join(h.images, 'gifar.gif'), Buffer.concat([gif, appended]));
    const result = await h.call('process_image', { path: 'gifar.gif', format: 'png' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { path } = (result.structuredContent as { file: { path: string } }).file;
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path).includes('<script>')).toBe(false);
  });

  it('drops a script hidden in a JPEG comment from every result', async () => {
    const jpeg = await (await photo(64, 48)).jpeg().toBuffer();
    const comment = Buffer.from('<script>alert(1)</script>', 'latin1');
    const segment = Buffer.concat([Buffer.from([0xff, 0xfe, 0, comment.length + 2]), comment]);
    writeFileSync(join(h.images, 'commented.jpg'), Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]));
    const result = await h.call('process_image', {
      path: 'commented.jpg',
      operations: [{ op: 'metadata', caption: 'safe' }],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { path } = (result.structuredContent as { file: { path: string } }).file;
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(path).includes('<script>')).toBe(false);
  });
});

describe.runIf(serviceGate(heifEncoder, it))('HEIC bombs, truncations and polyglots', () => {
  let h: ImageHarness;

  beforeAll(async () => {
    h = await startImageHarness();
    const real = heicOf(await (await photo(64, 48)).png().toBuffer());
    const write = (name: string, bytes: Buffer) => writeFileSync(join(h.images, name), bytes);
    write('good.png', await (await photo(32, 24)).png().toBuffer());
    write('declared-50000.heic', heicDeclaring(real, 50_000, 50_000));
    write('declared-4000.heic', heicDeclaring(real, 4_000, 4_000));
    write('truncated.heic', real.subarray(0, Math.floor(real.length / 2)));
    write('header-only.heic', real.subarray(0, 40));
    // A HEIC's box header with a PNG behind it: a file two readers would read two ways.
    write('heic-then-png.heic', Buffer.concat([real.subarray(0, 32), await (await photo(32, 24)).png().toBuffer()]));
  });

  afterAll(async () => {
    await h.close();
  });

  it.each([['declared-50000.heic', /50000×50000 = 2500000000 pixels; images over 50000000 pixels are not decoded/]])(
    'refuses the HEIC bomb %s before decoding it, in every tool',
    async (path, message) => {
      for (const [tool, args] of [
        ['process_image', { path, operations: [{ op: 'resize', width: 10 }] }],
        ['extract_text', { path }],
        ['compare_images', { a: { path }, b: { path } }],
      ] as const) {
        const result = await h.call(tool, args);
        expect(result.isError, tool).toBe(true);
        expect(textOf(result)).toMatch(message);
      }
      const info = await h.call('image_info', { path });
      expect(info.structuredContent).toMatchObject({ format: 'heic', processable: false });
      await stillServes(h);
    },
  );

  it('refuses a HEIC whose declared size is within the cap but whose data is not', async () => {
    const result = await h.call('process_image', { path: 'declared-4000.heic', format: 'png' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/could not be decoded|truncated or corrupt|not an image/);
    await stillServes(h);
  });

  it.each(['truncated.heic', 'header-only.heic', 'heic-then-png.heic'])('refuses %s clearly', async (path) => {
    for (const [tool, args] of [
      ['process_image', { path, format: 'png' }],
      ['extract_text', { path }],
    ] as const) {
      const result = await h.call(tool, args);
      expect(result.isError, tool).toBe(true);
      expect(textOf(result)).toMatch(/could not be decoded|truncated or corrupt|not an image this server can read/);
    }
    await stillServes(h);
  });
});
