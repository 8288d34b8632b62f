/** The largest HTTP answer or event read from an upstream, as for a child's messages. */
export const maxUpstreamMessageBytes: number = 32 * 1024 * 1024;

/** An upstream sent more than the host takes in one message. */
export class OversizedMessageError extends Error {
  constructor(what: string, maxBytes: number) {
    super(`${what} is over the ${maxBytes / 1024 / 1024} MiB the host takes in one message`);
    this.name = 'OversizedMessageError';
  }
}

/**
 * A response body as text, read no further than `maxBytes`: a larger one is
 * cancelled and refused, so one upstream cannot make the host hold an
 * answer of any size.
 */
export async function readCappedBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number = maxUpstreamMessageBytes,
): Promise<string> {
  if (body === null) return '';
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  const reader = body.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    bytes += read.value.length;
    if (bytes > maxBytes) {
      // Not awaited: a server that never ends its answer would hold the cancellation up.
      reader.cancel().catch(() => {});
      throw new OversizedMessageError('its answer', maxBytes);
    }
    text += decoder.decode(read.value, { stream: true });
  }
  return text + decoder.decode();
}
