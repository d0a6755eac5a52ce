import type { IncomingHttpHeaders } from 'node:http';
import busboy from 'busboy';

/** A `multipart/form-data` body as the fake received it, part by part. */
export interface RecordedMultipart {
  /** Text parts in the order received; a repeated name (`include[]`) appears once per part. */
  fields: { name: string; value: string }[];
  /** File parts (a part with a `filename`), with their exact bytes. */
  files: RecordedFilePart[];
  /** Why the body could not be read as a form (no boundary, a cut or malformed part); parts read before stay. */
  error?: string;
}

export interface RecordedFilePart {
  /** The form field's name, such as `file`. */
  name: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

export function isMultipart(headers: IncomingHttpHeaders): boolean {
  return /^multipart\/form-data\b/i.test(headers['content-type'] ?? '');
}

/** Reads a whole received form with busboy; never throws, a malformed form sets `error`. */
export function parseMultipart(rawBody: Buffer, headers: IncomingHttpHeaders): Promise<RecordedMultipart> {
  const form: RecordedMultipart = { fields: [], files: [] };
  return new Promise((resolve) => {
    let parser: busboy.Busboy;
    try {
      // `preservePath` and UTF-8 names: the filename is recorded exactly as sent.
      parser = busboy({ headers, preservePath: true, defParamCharset: 'utf8' });
    } catch (error) {
      return resolve({ ...form, error: (error as Error).message });
    }
    parser.on('field', (name, value) => form.fields.push({ name, value }));
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () =>
        form.files.push({
          name,
          filename: info.filename ?? '',
          contentType: info.mimeType,
          bytes: Buffer.concat(chunks),
        }),
      );
    });
    parser.on('error', (error: Error) => resolve({ ...form, error: error.message }));
    parser.on('close', () => resolve(form));
    parser.end(rawBody);
  });
}

/**
 * The text parts as a body object for the endpoint checks: a name ending in `[]` gathers its
 * values into an array; any other repeated name keeps its last value.
 */
export function multipartFields(form: RecordedMultipart): Record<string, string | string[]> {
  const body: Record<string, string | string[]> = {};
  for (const { name, value } of form.fields) {
    if (!name.endsWith('[]')) {
      body[name] = value;
      continue;
    }
    const values = body[name];
    body[name] = Array.isArray(values) ? [...values, value] : [value];
  }
  return body;
}
