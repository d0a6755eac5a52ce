import { write, writeSync } from 'node:fs';

/** Writes to one file descriptor, as `fs.write` and `fs.writeSync` do (tests pass their own). */
export interface BatchOutput {
  write(bytes: Buffer, callback: (error: NodeJS.ErrnoException | null, written: number) => void): void;
  writeSync(bytes: Buffer): number;
}

export interface StdoutBatchOptions {
  output?: BatchOutput;
  /** A batch goes out once this many bytes wait... */
  batchBytes?: number;
  /** ...or this long after its first line. */
  flushMs?: number;
  /** Lines past this many waiting bytes are dropped (and counted) until the reader catches up. */
  maxPendingBytes?: number;
}

/** PIPE_BUF on Linux: a pipe takes a write of up to this many bytes whole, never mixed with another's. */
const PIPE_WRITTEN_WHOLE_BYTES = 4096;

/**
 * The batch size for a process's stdout. Shared with other processes (the workers of
 * `GATEWAY_WORKERS` and their primary), a batch stays within what a pipe writes whole, so that
 * their lines never mix; alone, batches are larger and writes fewer.
 */
export function stdoutBatchBytes(stdout: 'shared' | 'alone'): number {
  return stdout === 'shared' ? PIPE_WRITTEN_WHOLE_BYTES : 64 * 1024;
}

const STDOUT: BatchOutput = {
  write: (bytes, callback) => write(1, bytes, 0, bytes.length, null, callback),
  writeSync: (bytes) => writeSync(1, bytes),
};
/** How long a write that found the pipe full waits to try again. */
const RETRY_MS = 10;
/** At exit, how long a full pipe is waited for before the last lines are given up. */
const EXIT_WAIT_MS = 1_000;

/** Lines waiting, written into a buffer of a batch's size (a longer line has one of its own). */
interface Block {
  bytes: Buffer;
  used: number;
}

/**
 * Log lines gathered and written together, 64 KiB (or `batchBytes`) or 100 ms at a time
 * (whichever comes first), one write in flight, and whatever is left written when the process
 * exits: a write per line would cost more than the rest of a relayed request's logging. A SIGKILL
 * loses at most the last 100 ms. Lines are copied into a batch-sized buffer as they come, and a
 * written buffer takes the next lines: no buffer per line, and none to join them.
 *
 * A log nobody reads must not stop the gateway: once a write fails for any reason but a full
 * pipe (its reader closed: EPIPE), lines are dropped from then on, and the exit writes nothing
 * more. A slow reader holds at most `maxPendingBytes` waiting; lines past that are dropped, and a
 * line after the kept ones says how many. (sonic-boom, pino's own destination, retries a
 * broken pipe forever when it flushes at exit, so a gateway whose reader left never exits.)
 */
export class StdoutBatch {
  private readonly output: BatchOutput;
  private readonly batchBytes: number;
  private readonly flushMs: number;
  private readonly maxPendingBytes: number;
  /** Lines waiting, oldest first; the last block takes the next line while it has room. */
  private blocks: Block[] = [];
  /** A written block's buffer, for the next block. */
  private spare: Buffer | undefined;
  private pendingBytes = 0;
  private writing = false;
  private closed = false;
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(options: StdoutBatchOptions = {}) {
    this.output = options.output ?? STDOUT;
    this.batchBytes = options.batchBytes ?? stdoutBatchBytes('alone');
    this.flushMs = options.flushMs ?? 100;
    this.maxPendingBytes = options.maxPendingBytes ?? 16 * 1024 * 1024;
  }

  write(line: string): boolean {
    if (this.closed) return true;
    if (this.pendingBytes >= this.maxPendingBytes) {
      this.dropped += 1;
      return true;
    }
    this.append(line);
    if (this.writing) return true;
    if (this.pendingBytes >= this.batchBytes) this.flush();
    else this.timer ??= setTimeout(this.flush, this.flushMs).unref();
    return true;
  }

  /** Writes what waits, synchronously: for the process's exit. */
  flushSync(): void {
    this.clearTimer();
    this.noteDropped();
    const giveUpAt = Date.now() + EXIT_WAIT_MS;
    while (!this.closed && this.blocks.length > 0) {
      const block = this.takeBlock();
      let bytes = block.bytes.subarray(0, block.used);
      while (bytes.length > 0) {
        try {
          bytes = bytes.subarray(this.output.writeSync(bytes));
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() > giveUpAt)
            return this.close();
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_MS);
        }
      }
    }
  }

  private append(line: string): void {
    const last = this.blocks[this.blocks.length - 1];
    const room = last === undefined ? 0 : this.batchBytes - last.used;
    // A UTF-16 unit takes at most three bytes of UTF-8: a line that short fits without measuring.
    const length = room >= line.length * 3 ? line.length : Buffer.byteLength(line);
    if (length > this.batchBytes) {
      this.blocks.push({ bytes: Buffer.from(line), used: length });
      this.pendingBytes += length;
      return;
    }
    const block = last !== undefined && length <= room ? last : this.newBlock();
    const written = block.bytes.write(line, block.used);
    block.used += written;
    this.pendingBytes += written;
  }

  private newBlock(): Block {
    const block = { bytes: this.spare ?? Buffer.allocUnsafe(this.batchBytes), used: 0 };
    this.spare = undefined;
    this.blocks.push(block);
    return block;
  }

  private readonly flush = (): void => {
    this.clearTimer();
    if (this.writing || this.closed || this.pendingBytes === 0) return;
    this.writing = true;
    const block = this.takeBlock();
    this.send(block.bytes.subarray(0, block.used), block.bytes);
    this.noteDropped();
  };

  /** Writes `bytes` (of `buffer`), the rest again after a partial write; then the next batch. */
  private send(bytes: Buffer, buffer: Buffer): void {
    this.output.write(bytes, (error, written) => {
      if (error?.code === 'EAGAIN') {
        setTimeout(() => this.send(bytes, buffer), RETRY_MS).unref();
        return;
      }
      if (error) return this.close();
      if (written < bytes.length) return this.send(bytes.subarray(written), buffer);
      this.writing = false;
      if (buffer.length === this.batchBytes) this.spare = buffer;
      if (this.pendingBytes >= this.batchBytes) this.flush();
      else if (this.pendingBytes > 0) this.timer ??= setTimeout(this.flush, this.flushMs).unref();
    });
  }

  /** Once lines were dropped for a slow reader: one line that says so, after the lines kept. */
  private noteDropped(): void {
    if (this.dropped === 0) return;
    const line = `{"level":40,"time":${Date.now()},"dropped":${this.dropped},"msg":"log lines dropped: stdout was not read fast enough"}\n`;
    this.dropped = 0;
    this.append(line);
  }

  /** The oldest block: whole lines, at most a batch of them (or one longer line). */
  private takeBlock(): Block {
    const block = this.blocks.shift()!;
    this.pendingBytes -= block.used;
    return block;
  }

  private close(): void {
    this.closed = true;
    this.writing = false;
    this.blocks = [];
    this.spare = undefined;
    this.pendingBytes = 0;
    this.clearTimer();
  }

  private clearTimer(): void {
    if (this.timer === undefined) return;
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
