import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';

/** A `multipart/form-data` body to send upstream: its length known, its file read from disk as it goes. */
export interface OutgoingMultipart {
  contentType: string;
  length: number;
  /** The body's bytes from the start; each call reads the file anew (one per attempt). */
  bytes(): Readable;
}

/**
 * The form re-encoded: the text fields in their order, then the file part, whose bytes are the
 * spooled file's, unchanged. Nothing is read before the upstream call pulls it, and an attempt
 * that stops early closes its read of the file.
 */
export function outgoingMultipart(
  fields: readonly { name: string; value: string }[],
  file: {
    name: string;
    filename: string;
    contentType: string;
    size: number;
    /** Where the file's bytes are: a path to read them from, or the bytes. */
    source: string | Buffer;
  },
): OutgoingMultipart {
  const boundary = `----model-gateway-${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    fields
      .map(
        ({ name, value }) =>
          `--${boundary}\r\ncontent-disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
      )
      .join('') +
      `--${boundary}\r\ncontent-disposition: form-data; name="${quoted(file.name)}"; filename="${quoted(file.filename)}"\r\n` +
      `content-type: ${file.contentType.replace(/[\r\n]/g, '')}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + file.size + tail.length,
    bytes: () => Readable.from(parts(head, file.source, tail), { objectMode: false }),
  };
}

/** The file is opened on the first read, and a consumer that stops early closes it (`for await`). */
async function* parts(head: Buffer, source: string | Buffer, tail: Buffer): AsyncGenerator<Buffer> {
  yield head;
  if (Buffer.isBuffer(source)) yield source;
  else for await (const chunk of createReadStream(source)) yield chunk as Buffer;
  yield tail;
}

/** A name in a quoted header parameter, as browsers write it (WHATWG HTML, multipart/form-data encoding). */
function quoted(name: string): string {
  return name.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}
