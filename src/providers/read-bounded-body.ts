import type { Readable } from 'node:stream';

/** Reads up to `limitBytes` of a body and discards the rest, so a huge reply cannot fill memory. */
export async function readBoundedBody(body: Readable, limitBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    chunks.push(buffer);
    length += buffer.length;
    if (length >= limitBytes) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, limitBytes);
}
