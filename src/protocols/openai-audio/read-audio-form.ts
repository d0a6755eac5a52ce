import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type busboy from 'busboy';
import type { UploadSpool } from '../../audio/upload-spool.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { refuseBody } from '../../http/read-body.js';
import { loadOnFirstUse } from '../../load-on-first-use.js';

const loadBusboy = loadOnFirstUse<typeof busboy>('busboy');

/** The uploaded file of a speech-to-text request, spooled to disk. */
export interface UploadedFile {
  filename: string;
  contentType: string;
  path: string;
  size: number;
}

/** A `multipart/form-data` body of `/v1/audio/transcriptions` or `/translations`, as read. */
export interface AudioForm {
  /** Text parts in the order received; a repeated name (`include[]`) once per part. */
  fields: { name: string; value: string }[];
  file: UploadedFile;
}

/** Every field of OpenAI's forms is short but `prompt`; a whole form has a dozen parts. */
const LIMITS = {
  fieldSize: 1024 * 1024,
  fields: 64,
  files: 1,
  parts: 100,
  fieldNameSize: 200,
  headerPairs: 20,
};

/**
 * Reads a speech-to-text form as a stream: text parts into memory (within `LIMITS`), the one file
 * part, named `file`, straight to a file in the spool, with backpressure from the disk to the
 * client. The whole body is held to `limit` bytes (`body_limit_bytes`). Every refusal closes the
 * connection and reads the rest of the body away; the spooled file of a refused form is removed.
 */
export async function readAudioForm(
  request: IncomingMessage,
  options: { limit: number; spool: UploadSpool },
): Promise<AudioForm> {
  const { limit } = options;
  const type = request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\b/i.test(type))
    throw refuseBody(
      request,
      limit,
      malformed(`the content type must be multipart/form-data, not '${type}'`),
    );
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw refuseBody(request, limit);

  let parser: busboy.Busboy;
  try {
    parser = loadBusboy()({ headers: request.headers, limits: { ...LIMITS, fileSize: limit } });
  } catch (error) {
    throw refuseBody(request, limit, malformed((error as Error).message));
  }
  const path = await options.spool.newPath();
  try {
    return await new FormReading(request, parser, path, limit).read();
  } catch (error) {
    await options.spool.remove(path);
    throw error;
  }
}

class FormReading {
  private readonly fields: AudioForm['fields'] = [];
  private file: UploadedFile | undefined;
  private writing: Promise<void> | undefined;
  private writer: ReturnType<typeof createWriteStream> | undefined;
  private received = 0;
  private failure: GatewayError | Error | undefined;
  private settle: (() => void) | undefined;

  constructor(
    private readonly request: IncomingMessage,
    private readonly parser: busboy.Busboy,
    private readonly path: string,
    private readonly limit: number,
  ) {}

  async read(): Promise<AudioForm> {
    const { parser, request } = this;
    const closed = new Promise<void>((resolve) => {
      this.settle = resolve;
    });
    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated)
        this.fail(malformed(`field ${name} is longer than ${LIMITS.fieldSize} bytes`));
      else this.fields.push({ name, value });
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || this.file) {
        stream.resume();
        this.fail(malformed(name === 'file' ? 'only one file may be sent' : `unexpected file part ${name}`));
        return;
      }
      const file = { filename: info.filename ?? '', contentType: info.mimeType, path: this.path, size: 0 };
      this.file = file;
      stream.on('data', (chunk: Buffer) => {
        file.size += chunk.length;
      });
      this.writer = createWriteStream(this.path, { mode: 0o600 });
      this.writing = pipeline(stream, this.writer);
      this.writing.catch((error: unknown) => this.fail(error as Error));
    });
    parser.on('partsLimit', () => this.fail(malformed(`more than ${LIMITS.parts} parts`)));
    parser.on('fieldsLimit', () => this.fail(malformed(`more than ${LIMITS.fields} fields`)));
    parser.on('filesLimit', () => this.fail(malformed('only one file may be sent')));
    parser.on('error', (error: Error) => this.fail(malformed(error.message)));
    parser.on('close', () => this.settle?.());
    request.on('data', this.count);
    request.on('close', this.closed);
    request.pipe(parser);
    await closed;
    if (!this.failure && this.writing) await this.writing.catch(() => undefined);
    this.stop();
    if (this.failure) throw this.failure;
    if (!this.file) throw new GatewayError('field_required', { field: 'file' });
    return { fields: this.fields, file: this.file };
  }

  private readonly count = (chunk: Buffer) => {
    this.received += chunk.length;
    if (this.received > this.limit) this.fail(new GatewayError('body_too_large', { limit: this.limit }));
  };

  private readonly closed = () => {
    if (!this.request.complete) this.fail(new Error('the request was closed before its body ended'));
  };

  /** The first failure stands; reading stops, and the rest of the body is read away. */
  private fail(error: GatewayError | Error): void {
    if (this.failure) return;
    this.stop();
    this.failure = error instanceof GatewayError ? refuseBody(this.request, this.limit, error) : error;
    this.parser.destroy();
    this.writer?.destroy();
    this.settle?.();
  }

  private stop(): void {
    this.request.off('data', this.count);
    this.request.off('close', this.closed);
    this.request.unpipe(this.parser);
  }
}

function malformed(detail: string): GatewayError {
  return new GatewayError('multipart_invalid', { detail });
}
