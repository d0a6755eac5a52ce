import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { StdoutBatch, stdoutBatchBytes, type BatchOutput } from '../../src/observability/stdout-batch.js';
import { ensureGatewayBuilt, repositoryRoot } from '../helpers/built-gateway.js';

type WriteCallback = (error: NodeJS.ErrnoException | null, written: number) => void;

/** An output whose writes wait until the test completes them, one by one. */
function heldOutput() {
  const calls: { bytes: Buffer; callback: WriteCallback; done?: boolean }[] = [];
  const syncWrites: Buffer[] = [];
  const output: BatchOutput = {
    write: (bytes, callback) => void calls.push({ bytes: Buffer.from(bytes), callback }),
    writeSync: (bytes) => {
      syncWrites.push(Buffer.from(bytes));
      return bytes.length;
    },
  };
  const written = () => [...calls.map((call) => call.bytes), ...syncWrites].map(String).join('');
  return { output, calls, syncWrites, written };
}

const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(code), { code });
const line = (index: number) => `{"index":${index}}\n`;

describe('StdoutBatch', () => {
  it('writes a batch once it reaches its size, one write at a time, in order', () => {
    const { output, calls, written } = heldOutput();
    const batch = new StdoutBatch({ output, batchBytes: 40, flushMs: 10_000 });
    for (let index = 0; index < 4; index++) batch.write(line(index));
    expect(calls).toHaveLength(1);
    for (let index = 4; index < 12; index++) batch.write(line(index));
    expect(calls).toHaveLength(1);
    calls[0]!.callback(null, calls[0]!.bytes.length);
    expect(calls).toHaveLength(2);
    calls[1]!.callback(null, calls[1]!.bytes.length);
    batch.flushSync();
    expect(written()).toBe(Array.from({ length: 12 }, (_, index) => line(index)).join(''));
  });

  it('writes at most 4 KiB at once to a stdout shared with other processes, 64 KiB to its own', () => {
    const sizes = (stdoutIs: 'shared' | 'alone') => {
      const { output, calls } = heldOutput();
      const batch = new StdoutBatch({ output, batchBytes: stdoutBatchBytes(stdoutIs), flushMs: 10_000 });
      const long = (index: number) => `{"index":${index},"text":"${'x'.repeat(300)}"}\n`;
      for (let index = 0; index < 1000; index++) batch.write(long(index));
      for (let call = 0; call < calls.length; call++) calls[call]!.callback(null, calls[call]!.bytes.length);
      return calls.map((call) => call.bytes.length);
    };
    const shared = sizes('shared');
    expect(Math.max(...shared)).toBeLessThanOrEqual(4096);
    expect(Math.max(...shared)).toBeGreaterThan(3700);
    const alone = sizes('alone');
    expect(Math.max(...alone)).toBeLessThanOrEqual(64 * 1024);
    expect(Math.max(...alone)).toBeGreaterThan(60 * 1024);
  });

  it('writes a small batch when its time is up', async () => {
    const { output, calls } = heldOutput();
    const batch = new StdoutBatch({ output, batchBytes: 4096, flushMs: 20 });
    batch.write(line(1));
    expect(calls).toHaveLength(0);
    await sleep(60);
    expect(calls.map((call) => String(call.bytes))).toEqual([line(1)]);
  });

  it('tries a full pipe again and writes the rest of a partial write, losing nothing', async () => {
    const { output, calls, written } = heldOutput();
    const batch = new StdoutBatch({ output, batchBytes: 10, flushMs: 10_000 });
    batch.write(line(1));
    calls[0]!.callback(errno('EAGAIN'), 0);
    await sleep(40);
    expect(calls).toHaveLength(2);
    calls[1]!.callback(null, 3);
    expect(String(calls[2]!.bytes)).toBe(line(1).slice(3));
    calls[2]!.callback(null, calls[2]!.bytes.length);
    batch.write(line(2));
    calls[3]!.callback(null, calls[3]!.bytes.length);
    const reached = String(calls[1]!.bytes).slice(0, 3) + String(calls[2]!.bytes) + String(calls[3]!.bytes);
    expect(reached).toBe(line(1) + line(2));
  });

  it('drops every line once the reader is gone, and writes nothing at exit', () => {
    const { output, calls, syncWrites } = heldOutput();
    const batch = new StdoutBatch({ output, batchBytes: 10, flushMs: 10_000 });
    batch.write(line(1));
    batch.write(line(2));
    calls[0]!.callback(errno('EPIPE'), 0);
    for (let index = 3; index < 100; index++) expect(batch.write(line(index))).toBe(true);
    batch.flushSync();
    expect(calls).toHaveLength(1);
    expect(syncWrites).toHaveLength(0);
  });

  it('holds a bounded backlog for a slow reader, and says how many lines it dropped', () => {
    const { output, calls } = heldOutput();
    const batch = new StdoutBatch({ output, batchBytes: 10, flushMs: 10_000, maxPendingBytes: 100 });
    for (let index = 0; index < 1000; index++) batch.write(line(index));
    expect(calls.map((call) => String(call.bytes))).toEqual([line(0)]);
    // While the first line was written, the backlog filled up to its bound; the rest were dropped.
    for (let written = 0; written < 10; written++)
      calls[written]!.callback(null, calls[written]!.bytes.length);
    expect(calls.slice(1, 10).map((call) => String(call.bytes))).toEqual(
      Array.from({ length: 9 }, (_, index) => line(index + 1)),
    );
    const note = JSON.parse(String(calls[10]!.bytes)) as { level: number; dropped: number; msg: string };
    expect(note).toMatchObject({ level: 40, dropped: 1000 - 1 - 9 });
    expect(note.msg).toMatch(/dropped/);
  });

  it('writes whole lines, at most a batch at a time; a longer line alone and whole', () => {
    const { output, calls, syncWrites } = heldOutput();
    const batch = new StdoutBatch({ output, batchBytes: 40, flushMs: 10_000 });
    const long = `{"text":"${'x'.repeat(60)}"}\n`;
    const lines = [line(1), line(2), line(3), line(4), long, line(5), line(6), line(7)];
    for (const text of lines) batch.write(text);
    while (calls.some((call) => !call.done)) {
      const call = calls.find((each) => !each.done)!;
      call.done = true;
      call.callback(null, call.bytes.length);
    }
    batch.flushSync();
    const writes = [...calls.map((call) => String(call.bytes)), ...syncWrites.map(String)];
    expect(writes.join('')).toBe(lines.join(''));
    for (const text of writes) {
      expect(text.endsWith('\n')).toBe(true);
      if (text !== long) expect(Buffer.byteLength(text)).toBeLessThanOrEqual(40);
    }
  });

  it('keeps a batch unchanged until its write completes, and lines of several-byte characters whole', () => {
    const pending: { bytes: Buffer; copy: string; callback: WriteCallback }[] = [];
    const received: string[] = [];
    const batch = new StdoutBatch({
      output: {
        write: (bytes, callback) => void pending.push({ bytes, copy: String(bytes), callback }),
        writeSync: (bytes) => {
          received.push(String(bytes));
          return bytes.length;
        },
      },
      batchBytes: 64,
      flushMs: 10_000,
    });
    const texts = ['é', '€uro', '😀', '中文字', 'plain'];
    const lines = Array.from(
      { length: 200 },
      (_, index) => `{"${index}":"${texts[index % 5]!.repeat(index % 7)}"}\n`,
    );
    for (const [index, text] of lines.entries()) {
      batch.write(text);
      // Writes complete now and then, while later lines fill the buffers.
      if (index % 3 === 0 && pending.length > 0) {
        const call = pending.shift()!;
        expect(String(call.bytes)).toBe(call.copy);
        received.push(call.copy);
        call.callback(null, call.bytes.length);
      }
    }
    while (pending.length > 0) {
      const call = pending.shift()!;
      expect(String(call.bytes)).toBe(call.copy);
      received.push(call.copy);
      call.callback(null, call.bytes.length);
    }
    batch.flushSync();
    expect(received.join('')).toBe(lines.join(''));
    for (const text of received) {
      expect(text.endsWith('\n')).toBe(true);
      // A line longer than a batch goes alone.
      if (Buffer.byteLength(text) > 64) expect(text.indexOf('\n')).toBe(text.length - 1);
    }
  });

  it('takes an empty write as nothing', () => {
    const { output, calls, written } = heldOutput();
    const batch = new StdoutBatch({ output, batchBytes: 40, flushMs: 10_000 });
    batch.write('');
    batch.write(line(1));
    batch.write('');
    batch.flushSync();
    expect(calls).toHaveLength(0);
    expect(written()).toBe(line(1));
  });

  it('gives up the last lines at exit when the reader is gone', () => {
    let attempts = 0;
    const batch = new StdoutBatch({
      output: {
        write: () => undefined,
        writeSync: () => {
          attempts += 1;
          throw errno('EPIPE');
        },
      },
      batchBytes: 4096,
      flushMs: 10_000,
    });
    batch.write(line(1));
    batch.flushSync();
    expect(attempts).toBe(1);
  });
});

describe('a process whose stdout reader left', () => {
  beforeAll(ensureGatewayBuilt, 180_000);

  it('still exits, at once, with its last lines unwritten', async () => {
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createLogger } from './dist/observability/logger.js';
         const logger = createLogger('info');
         process.stdin.once('data', () => {
           for (let index = 0; index < 5; index += 1) logger.info({ index }, 'after the reader left');
           process.exit(0);
         });`,
      ],
      { cwd: repositoryRoot, stdio: ['pipe', 'pipe', 'inherit'] },
    );
    child.stdout.destroy();
    await sleep(100);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.write('go\n');
    const code = await Promise.race([exited, sleep(5_000).then(() => 'still running')]);
    if (code === 'still running') child.kill('SIGKILL');
    expect(code).toBe(0);
  });
});
