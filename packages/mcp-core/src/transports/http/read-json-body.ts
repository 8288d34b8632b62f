import type { IncomingMessage } from 'node:http';

export type BodyOutcome =
  | { ok: true; value: unknown }
  | { ok: false; status: 400 | 413 | 415; code: number; message: string };

/**
 * Reads a POST body as JSON with a byte cap. Stops reading (and says 413) as
 * soon as the cap is passed, so an oversized body costs no more than the cap.
 */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<BodyOutcome> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    return {
      ok: false,
      status: 415,
      code: -32000,
      message: 'Unsupported Media Type: send Content-Type: application/json',
    };
  }
  const declared = Number(req.headers['content-length']);
  const tooLarge = {
    ok: false,
    status: 413,
    code: -32000,
    message: `Payload too large: the limit is ${maxBytes} bytes`,
  } as const;
  if (Number.isFinite(declared) && declared > maxBytes) return tooLarge;
  // Plain events rather than `for await`: the async iterator costs more than the JSON parse on small bodies.
  const text = await new Promise<string | undefined>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () =>
      resolve(chunks.length === 1 ? chunks[0]?.toString('utf8') : Buffer.concat(chunks, size).toString('utf8')),
    );
    req.once('error', reject);
  });
  if (text === undefined) return tooLarge;
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: the body is not valid JSON' };
  }
}
