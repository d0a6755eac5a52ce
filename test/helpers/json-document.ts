import { scanJsonDocument, type JsonDocument } from '../../src/protocols/json-document.js';
import { MAX_JSON_DEPTH } from '../../src/protocols/wire-json.js';

/** A value as a passthrough reads a large upstream reply: the JSON bytes, scanned, parsed only where read. */
export function scannedDocument(value: unknown): JsonDocument {
  const read = scanJsonDocument(Buffer.from(JSON.stringify(value)), { maxDepth: MAX_JSON_DEPTH });
  if (!read.ok) throw new Error(read.error);
  return read.document;
}
