import { Worker } from 'node:worker_threads';

/**
 * Copies the write-ahead log back into the SQLite database from a worker thread. SQLite would
 * otherwise checkpoint inside whichever commit crosses the threshold, on the event loop, fsync
 * included: a stall of every request in flight. A passive checkpoint never blocks the writer.
 *
 * A passive checkpoint alone never lets the log start over while writes go on: the log restarts
 * only when a writer finds every frame copied, and under steady traffic new frames land while each
 * checkpoint runs. The log then grew by about 1.4 KB per request for as long as the traffic lasted
 * (66 MB in twelve seconds of saturation), and a process opening the file must read all of it.
 * Once the log passes `restartFrames`, a restart checkpoint follows the passive one: it takes the
 * write lock for the frames written since (the passive pass copied the rest), so the next commit
 * starts the log over, and the writer trims the file to `journal_size_limit`. While it waits for
 * readers still on the log it keeps the write lock, so it waits at most 10 ms; one that gives up
 * (a long read in another process) is tried again on the next round.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const database = new Database(workerData.file);
database.pragma('busy_timeout = 10');
const timer = setInterval(() => {
  try {
    const [{ log }] = database.pragma('wal_checkpoint(PASSIVE)');
    if (log >= workerData.restartFrames) database.pragma('wal_checkpoint(RESTART)');
  } catch {}
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); database.close(); parentPort.close(); });
`;

/** Frames past which the log is made to start over: 64 MiB of 4 KiB pages. */
export const WAL_RESTART_FRAMES = 16_384;

export interface WalCheckpointer {
  close(): Promise<void>;
}

export function startWalCheckpointer(
  file: string,
  { intervalMs = 1000, restartFrames = WAL_RESTART_FRAMES } = {},
): WalCheckpointer {
  const driver = import.meta.resolve('better-sqlite3').replace('file://', '');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, intervalMs, restartFrames, driver },
  });
  worker.unref();
  return {
    async close() {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      // Unreferenced, the worker would not keep the process alive until it has stopped.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
