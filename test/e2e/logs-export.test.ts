import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeCsvRow } from '../../src/admin/encode-csv-row.js';
import type { Database } from '../../src/store/schema.js';
import type { NewUsageLog } from '../../src/store/usage-logs-repository.js';
import { callApi, expectApiError, signedInClient } from '../helpers/console-client.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../helpers/start-test-gateway.js';
import { gatewayStoreVariants } from '../helpers/test-stores.js';
import { usageRecord } from '../helpers/usage-record.js';

/** A UTC midnight. */
const BASE = 1_699_920_000;
const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

type Entry = Record<string, string | number | boolean | null>;

/** The records of the filter and quoting tests; ids ascend in this order, times do not. */
const RECORDS: NewUsageLog[] = [
  usageRecord({
    requestId: 'r-late',
    createdAt: BASE + 20,
    userId: 1,
    keyId: 10,
    stream: true,
    endpoint: 'audio-transcriptions',
    audioSeconds: 12.5,
  }),
  usageRecord({ requestId: 'r-early-a', createdAt: BASE + 10, userId: 1, keyId: 11, cost: 1 }),
  usageRecord({
    requestId: 'r-early-b',
    createdAt: BASE + 10,
    userId: 2,
    keyId: 20,
    channelId: null,
    model: 'odd, "quoted"\r\nmodel',
    requestedModel: '+alias',
    statusCode: 502,
    firstByteMs: null,
    error: '=HYPERLINK("http://example.com","x")',
  }),
  usageRecord({
    requestId: 'r-minus',
    createdAt: BASE + 30,
    userId: 2,
    keyId: 20,
    model: 'claude-sonnet-4',
    statusCode: 0,
    cost: 1_234_567_891,
    error: '-1+2',
    characters: 15,
  }),
  usageRecord({
    requestId: '@r-at',
    createdAt: BASE + 3600,
    userId: 1,
    keyId: 10,
    error: 'line one\nline two',
  }),
  usageRecord({ requestId: 'r-before', createdAt: BASE - 1, userId: 1, keyId: 10, statusCode: 429 }),
];

/** Request ids oldest first by (created_at, then insertion order), among those `matching` keeps. */
function expectedOrder(matching: (log: NewUsageLog) => boolean = () => true): string[] {
  return RECORDS.map((log, index) => ({ log, index }))
    .filter(({ log }) => matching(log))
    .sort((a, b) => a.log.createdAt - b.log.createdAt || a.index - b.index)
    .map(({ log }) => log.requestId);
}

/** RFC 4180 records of `text`, each a list of fields, for reading the export back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      index += 1;
    } else field += char;
  }
  expect({ field, row, quoted }).toEqual({ field: '', row: [], quoted: false });
  return rows;
}

/** A field as the CSV export writes it, before quoting: text that could start a formula gets a `'`. */
function csvText(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

async function download(gw: TestGateway, query: string, headers: Record<string, string> = ADMIN) {
  const response = await fetch(`${gw.origin}/api/logs/export?${query}`, { headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe.each(gatewayStoreVariants())('usage log export on $name', (variant) => {
  let gw: TestGateway;
  /** Every record as `/api/logs` serialises it, by request id. */
  let listed: Map<string, Entry>;

  beforeAll(async () => {
    gw = await startTestGateway(variant.options);
    await gw.gateway.services.repositories.usageLogs.insertMany(RECORDS);
    const list = await gw.admin<{ data: Entry[] }>('GET', '/logs?limit=1000');
    listed = new Map(list.body.data.map((entry) => [String(entry['request_id']), entry]));
    expect(listed.size).toBe(RECORDS.length);
  });

  afterAll(async () => {
    await gw?.close();
    await variant.cleanUp();
  });

  const entries = (requestIds: string[]) => requestIds.map((requestId) => listed.get(requestId) as Entry);

  describe('JSON Lines', () => {
    it('streams every record oldest first, each line a `/api/logs` entry as it serialises', async () => {
      const response = await download(gw, 'format=jsonl');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/x-ndjson');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="usage-logs.jsonl"');
      expect(response.text.endsWith('\n')).toBe(true);
      const lines = response.text.slice(0, -1).split('\n');
      expect(lines).toEqual(entries(expectedOrder()).map((entry) => JSON.stringify(entry)));
      expect(lines.map((line) => (JSON.parse(line) as Entry)['request_id'])).toEqual([
        'r-before',
        'r-early-a',
        'r-early-b',
        'r-late',
        'r-minus',
        '@r-at',
      ]);
    });

    it('is the format when none is named', async () => {
      const response = await download(gw, '');
      expect(response.headers.get('content-type')).toBe('application/x-ndjson');
      expect(response.text.trim().split('\n')).toHaveLength(RECORDS.length);
    });

    it.each([
      ['user_id', 'user_id=2', (log: NewUsageLog) => log.userId === 2],
      ['key_id', 'key_id=10', (log: NewUsageLog) => log.keyId === 10],
      ['model', 'model=claude-sonnet-4', (log: NewUsageLog) => log.model === 'claude-sonnet-4'],
      [
        'a model with a comma, quotes and a line break',
        `model=${encodeURIComponent('odd, "quoted"\r\nmodel')}`,
        (log: NewUsageLog) => log.model.startsWith('odd'),
      ],
      [
        'from and to, both inclusive',
        `from=${BASE + 10}&to=${BASE + 30}`,
        (log: NewUsageLog) => log.createdAt >= BASE + 10 && log.createdAt <= BASE + 30,
      ],
      ['from alone', `from=${BASE + 20}`, (log: NewUsageLog) => log.createdAt >= BASE + 20],
      ['status=error', 'status=error', (log: NewUsageLog) => log.statusCode !== 200],
      ['status=502', 'status=502', (log: NewUsageLog) => log.statusCode === 502],
      ['channel_id', 'channel_id=7', (log: NewUsageLog) => log.channelId === 7],
      [
        'several filters at once',
        `user_id=1&key_id=10&to=${BASE + 3599}`,
        (log: NewUsageLog) => log.userId === 1 && log.keyId === 10 && log.createdAt <= BASE + 3599,
      ],
    ])('filters by %s', async (_label, query, matching) => {
      const response = await download(gw, `format=jsonl&${query}`);
      expect(response.status).toBe(200);
      const expected = expectedOrder(matching);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(RECORDS.length);
      const exported = response.text.split('\n').filter((line) => line !== '');
      expect(exported.map((line) => (JSON.parse(line) as Entry)['request_id'])).toEqual(expected);
    });

    it('is empty when nothing matches', async () => {
      const response = await download(gw, 'format=jsonl&model=no-such-model');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/x-ndjson');
      expect(response.text).toBe('');
    });
  });

  describe('CSV', () => {
    const header =
      'id,request_id,created_at,user_id,key_id,channel_id,model,requested_model,endpoint,stream,' +
      'status_code,prompt_tokens,completion_tokens,cached_tokens,cache_write_tokens,reasoning_tokens,' +
      'cost,latency_ms,first_byte_ms,error,audio_seconds,characters\r\n';

    it('has a header row of the entry fields in their order, then one record per line oldest first', async () => {
      const response = await download(gw, 'format=csv');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(response.headers.get('content-disposition')).toBe('attachment; filename="usage-logs.csv"');
      expect(response.text.startsWith(header)).toBe(true);
      const [fields, ...rows] = parseCsv(response.text);
      expect(fields).toEqual(Object.keys(listed.get('r-late') as Entry));
      const expected = entries(expectedOrder()).map((entry) => Object.values(entry).map(csvText));
      expect(rows).toEqual(expected);
    });

    it('quotes fields with commas, quotes and line breaks, and defuses leading formula characters', async () => {
      const response = await download(gw, 'format=csv&user_id=2');
      const [early, minus] = ['r-early-b', 'r-minus'].map((requestId) => listed.get(requestId) as Entry);
      expect(response.text).toBe(
        header +
          `${early?.['id']},r-early-b,${BASE + 10},2,20,,"odd, ""quoted""\r\nmodel",'+alias,chat-completions,` +
          `false,502,10,20,1,2,3,0,5,,"'=HYPERLINK(""http://example.com"",""x"")",,\r\n` +
          `${minus?.['id']},r-minus,${BASE + 30},2,20,7,claude-sonnet-4,claude-sonnet-4,chat-completions,` +
          `false,0,10,20,1,2,3,1.234567891,5,4,'-1+2,,15\r\n`,
      );
    });

    it('writes a quoted line break inside a field and a defused leading @', async () => {
      const response = await download(gw, `format=csv&from=${BASE + 3600}`);
      const entry = listed.get('@r-at') as Entry;
      expect(response.text).toBe(
        header +
          `${entry['id']},'@r-at,${BASE + 3600},1,10,7,gpt-4o,gpt-4o,chat-completions,false,200,10,20,1,2,3,0,5,4,` +
          `"line one\nline two",,\r\n`,
      );
    });

    it('is the header row alone when nothing matches', async () => {
      const response = await download(gw, 'format=csv&model=no-such-model');
      expect(response.status).toBe(200);
      expect(response.text).toBe(header);
    });
  });

  describe('requests it refuses', () => {
    it.each([
      ['an unknown format', 'format=xml', 'format'],
      ['an empty format', 'format=', 'format'],
      ['a format given twice', 'format=csv&format=jsonl', 'format'],
      ['a filter out of range', 'format=csv&user_id=-1', 'user_id'],
      ['an unknown status', 'format=csv&status=fine', 'status'],
      ['a window that ends before it starts', 'format=jsonl&from=5&to=4', 'from'],
    ])('answers 400 to %s', async (_label, query, field) => {
      const response = await callApi(gw, 'GET', `/logs/export?${query}`, { headers: ADMIN });
      expectApiError(response, 400, 'invalid_request', field);
      expect(response.headers.get('content-disposition')).toBeNull();
    });

    it('answers a store failure on the first page as an error, not as a download', async () => {
      const { usageLogs } = gw.gateway.services.repositories;
      const failing = vi.spyOn(usageLogs, 'listAfter').mockRejectedValueOnce(new Error('disk I/O error'));
      try {
        const response = await callApi<{ error: { type: string } }>(gw, 'GET', '/logs/export?format=csv', {
          headers: ADMIN,
        });
        expectApiError(response, 500, 'internal_error');
        expect(response.headers.get('content-type')).toContain('application/json');
        expect(response.headers.get('content-disposition')).toBeNull();
      } finally {
        failing.mockRestore();
      }
    });

    it('needs the admin token or an admin session', async () => {
      expectApiError(await callApi(gw, 'GET', '/logs/export?format=csv'), 401, 'unauthorized');
      expectApiError(
        await callApi(gw, 'GET', '/logs/export?format=csv', { headers: { authorization: 'Bearer wrong' } }),
        401,
        'unauthorized',
      );

      const password = 'export password';
      const user = async (role: 'user' | 'admin') => {
        const username = `${role}-${randomBytes(3).toString('hex')}`;
        expect((await gw.admin('POST', '/users', { username, password, role })).status).toBe(201);
        return signedInClient(gw, { username, password });
      };
      const member = await user('user');
      expectApiError(await member.call('GET', '/logs/export?format=csv'), 403, 'forbidden');
      // What the console's download link sends: the session cookie on a GET, no CSRF header.
      const admin = await user('admin');
      const response = await fetch(`${gw.origin}/api/logs/export?format=csv`, {
        headers: { cookie: `gw_session=${admin.session}` },
      });
      expect(response.status).toBe(200);
      expect(parseCsv(await response.text())).toHaveLength(RECORDS.length + 1);
    });
  });
});

describe('encodeCsvRow', () => {
  it.each([
    [['plain', 1, 0.5, true, false, null], 'plain,1,0.5,true,false,\r\n'],
    [['a,b', 'say "hi"', 'cr\rlf\n'], '"a,b","say ""hi""","cr\rlf\n"\r\n'],
    [['=1+1', '+1', '-1', '@x', '\tx', '\rx'], `'=1+1,'+1,'-1,'@x,'\tx,"'\rx"\r\n`],
    [['=SUM(A1,B1)', 'a=b', -1, 1e-9], `"'=SUM(A1,B1)",a=b,-1,1e-9\r\n`],
  ])('encodes %j', (values, expected) => {
    expect(encodeCsvRow(values)).toBe(expected);
  });
});

/** `global.gc`, which Node offers only when started with `--expose-gc`: turned on here, read from a fresh context. */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

const BULK_COUNT = 100_000;
const MB = 1024 * 1024;

/**
 * `BULK_COUNT` records written by one statement that counts them out in the database itself: ten a
 * second (so pages end inside a second and the id breaks the tie), every 50th a 502 with an error
 * text that needs quoting. The same SQL runs on SQLite and PostgreSQL.
 */
async function insertBulkRecords(db: Kysely<Database>): Promise<void> {
  await sql`
    with recursive n(i) as (select 0 union all select i + 1 from n where i < ${sql.lit(BULK_COUNT - 1)})
    insert into usage_logs (
      request_id, created_at, user_id, key_id, channel_id, model, requested_model, endpoint, stream,
      status_code, prompt_tokens, completion_tokens, cached_tokens, cache_write_tokens,
      reasoning_tokens, cost, latency_ms, first_byte_ms, error
    )
    select
      'bulk-' || i, ${sql.lit(BASE)} + i / 10, i % 7, i % 13, 7,
      case when i % 2 = 0 then 'gpt-4o' else 'claude-sonnet-4' end, null, 'chat-completions', false,
      case when i % 50 = 0 then 502 else 200 end, 10, 20, 1, 2,
      3, i * 1000, 5, 4, case when i % 50 = 0 then 'upstream answered 502, "bad gateway"' end
    from n
  `.execute(db);
}

describe.each(gatewayStoreVariants())('exporting 100,000 records on $name', (variant) => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway(variant.options);
    await insertBulkRecords(gw.gateway.services.store.db);
  });

  afterAll(async () => {
    await gw?.close();
    await variant.cleanUp();
  });

  it('streams them all in order while the heap stays flat, also while the client pauses', async () => {
    const gc = exposeGc();
    const live = () => {
      gc();
      const usage = process.memoryUsage();
      // Buffers live outside the JavaScript heap: a reply held as Buffers would hide from heapUsed.
      return usage.heapUsed + usage.arrayBuffers;
    };
    const start = live();
    const response = await fetch(`${gw.origin}/api/logs/export?format=jsonl`, { headers: ADMIN });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let lines = 0;
    let bytes = 0;
    let outOfOrder = 0;
    let last = { created_at: 0, id: 0 };
    let tail = '';
    let nextSample = 0;
    let paused = false;
    let peak = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      // Lines are checked as they arrive, then dropped: the test holds no more than the gateway should.
      const complete = (tail + decoder.decode(value, { stream: true })).split('\n');
      tail = complete.pop() ?? '';
      for (const line of complete) {
        const entry = JSON.parse(line) as { created_at: number; id: number };
        if (
          entry.created_at < last.created_at ||
          (entry.created_at === last.created_at && entry.id <= last.id)
        ) {
          outOfOrder += 1;
        }
        last = entry;
        lines += 1;
      }
      if (!paused && bytes >= 4 * MB) {
        // A client that stops reading for a while: a gateway deaf to backpressure would read on
        // and hold the rest of the export in memory meanwhile.
        paused = true;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        nextSample = 0;
      }
      if (bytes >= nextSample) {
        peak = Math.max(peak, live() - start);
        nextSample = bytes + 2 * MB;
      }
    }
    expect({ tail, lines, outOfOrder, lastCreatedAt: last.created_at }).toEqual({
      tail: '',
      lines: BULK_COUNT,
      outOfOrder: 0,
      lastCreatedAt: BASE + (BULK_COUNT - 10) / 10,
    });

    // The whole export is over twice the bound, and the records as objects take several times their
    // text: a gateway that held them all, as objects, text or Buffers, would cross the bound well
    // before the end. What it should hold at any time is one page of 1,000 records and its text
    // (about 1 MB) with the stream's buffers, whatever the count.
    const BOUND = 16 * MB;
    expect(bytes).toBeGreaterThan(2 * BOUND);
    expect(peak).toBeLessThan(BOUND);
  });

  it('cuts the reply short when the store fails part way, so a partial file never looks whole', async () => {
    const { usageLogs } = gw.gateway.services.repositories;
    const listAfter = usageLogs.listAfter.bind(usageLogs);
    const failing = vi
      .spyOn(usageLogs, 'listAfter')
      .mockImplementationOnce(listAfter)
      .mockRejectedValueOnce(new Error('connection lost'));
    try {
      const response = await fetch(`${gw.origin}/api/logs/export?format=csv`, { headers: ADMIN });
      expect(response.status).toBe(200);
      await expect(response.text()).rejects.toThrow();
    } finally {
      failing.mockRestore();
    }
  });

  it('stops reading when the client goes away', async () => {
    const { usageLogs } = gw.gateway.services.repositories;
    const listAfter = usageLogs.listAfter.bind(usageLogs);
    const pagesRead = vi.spyOn(usageLogs, 'listAfter').mockImplementation(async (options) => {
      // Pages slower than the client: what the socket buffers could take has no say in the count.
      await new Promise((resolve) => setTimeout(resolve, 20));
      return listAfter(options);
    });
    try {
      const controller = new AbortController();
      const response = await fetch(`${gw.origin}/api/logs/export?format=csv`, {
        headers: ADMIN,
        signal: controller.signal,
      });
      await (response.body as ReadableStream<Uint8Array>).getReader().read();
      controller.abort();
      await vi.waitFor(
        async () => {
          const before = pagesRead.mock.calls.length;
          await new Promise((resolve) => setTimeout(resolve, 200));
          expect(pagesRead.mock.calls.length).toBe(before);
        },
        { timeout: 5000 },
      );
      // The first page was taken before the reply started; one more at most was under way.
      expect(pagesRead.mock.calls.length).toBeLessThanOrEqual(3);
    } finally {
      pagesRead.mockRestore();
    }
  });
});
