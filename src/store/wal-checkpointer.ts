import { Worker } from 'node:worker_threads';

/**
 * Copies the write-ahead log back into the SQLite database from a worker thread. SQLite would
 * otherwise checkpoint inside whichever commit crosses the threshold, on the event loop, fsync
 * included: a stall of every request in flight. A passive checkpoint never blocks the writer.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const database = new Database(workerData.file);
database.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try { database.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.intervalMs);
parentPort.on('message', () => { clearInterval(timer); database.close(); parentPort.close(); });
`;

export interface WalCheckpointer {
  close(): Promise<void>;
}

export function startWalCheckpointer(file: string, intervalMs = 1000): WalCheckpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { file, intervalMs, driver: import.meta.resolve('better-sqlite3').replace('file://', '') },
  });
  worker.unref();
  return {
    async close() {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('stop');
      await exited;
    },
  };
}
