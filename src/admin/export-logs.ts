import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../services.js';
import { usageLogPages } from '../store/usage-log-pages.js';
import type { UsageLogRecord } from '../store/usage-logs-repository.js';
import { invalidField } from './admin-error.js';
import { readStringParameter } from './parse-query.js';
import { parseUsageConditions } from './parse-usage-query.js';
import { serializeUsageLog } from './serialize-usage-log.js';
import { USAGE_LOG_CSV_HEADER, usageLogCsvRow, type UsageLogEntry } from './usage-log-csv.js';

type ExportFormat = 'jsonl' | 'csv';

interface ExportEncoding {
  contentType: string;
  /** Written before the first record, and alone when none matches. */
  head: string;
  line(entry: UsageLogEntry): string;
}

const ENCODINGS: Record<ExportFormat, ExportEncoding> = {
  // JSON Lines (https://jsonlines.org): one `/api/logs` entry per line, as the list serialises it.
  jsonl: { contentType: 'application/x-ndjson', head: '', line: (entry) => `${JSON.stringify(entry)}\n` },
  csv: { contentType: 'text/csv; charset=utf-8', head: USAGE_LOG_CSV_HEADER, line: usageLogCsvRow },
};

const FORMATS = Object.keys(ENCODINGS) as ExportFormat[];

/**
 * `GET /api/logs/export` (admin-api section 12, Export): every record the `/api/logs` filters match,
 * oldest first, as one download in `format` `jsonl` (the default) or `csv`. The body is a stream fed
 * one page of records at a time: the next page is read only once the client has taken the last one
 * (the pipe into the socket waits for `drain`), and a client that disconnects ends the reading.
 */
export function registerLogExportRoute(app: FastifyInstance, services: GatewayServices): void {
  app.get('/logs/export', async (request, reply) => {
    const format = parseExportFormat(request.query);
    const conditions = parseUsageConditions(request.query);
    const pages = usageLogPages({ usageLogs: services.repositories.usageLogs, conditions });
    // A store failure on the first page is still an ordinary error reply, before any download header.
    const first = await pages.next();
    const chunks = exportChunks({ encoding: ENCODINGS[format], first, pages });
    return reply
      .type(ENCODINGS[format].contentType)
      .header('content-disposition', `attachment; filename="usage-logs.${format}"`)
      .header('cache-control', 'no-store')
      .send(Readable.from(chunks, { objectMode: false }));
  });
}

function parseExportFormat(query: unknown): ExportFormat {
  const raw = readStringParameter(query, 'format');
  if (raw === undefined) return 'jsonl';
  const format = FORMATS.find((candidate) => candidate === raw);
  if (!format) throw invalidField('format', `must be one of ${FORMATS.join(', ')}`);
  return format;
}

/** The download's text, one chunk per page of records, the head in front of the first. */
async function* exportChunks(options: {
  encoding: ExportEncoding;
  first: IteratorResult<UsageLogRecord[], void>;
  pages: AsyncGenerator<UsageLogRecord[], void, undefined>;
}): AsyncGenerator<string, void, undefined> {
  const { encoding, pages } = options;
  let head = encoding.head;
  try {
    for (let next = options.first; !next.done; next = await pages.next()) {
      yield head + next.value.map((record) => encoding.line(serializeUsageLog(record))).join('');
      head = '';
    }
    if (head !== '') yield head;
  } finally {
    // However the download ends: all sent, or the stream destroyed because the client went away.
    await pages.return();
  }
}
