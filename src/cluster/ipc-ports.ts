import type { Worker } from 'node:cluster';
import type { IpcPort } from './ipc-link.js';

/**
 * A worker's channel to its primary. A send on a closed channel reports to `onError` instead of
 * emitting an `error` event that nobody listens to (which would end the process).
 */
export function primaryPort(): IpcPort {
  return {
    send(message, onError) {
      if (!process.send || !process.connected) return onError(new Error('no IPC channel to the primary'));
      process.send(message, undefined, undefined, (error: Error | null) => {
        if (error) onError(error);
      });
    },
    listen(listener) {
      process.on('message', listener);
      return () => process.off('message', listener);
    },
  };
}

/** The primary's channel to one worker. */
export function workerPort(worker: Worker): IpcPort {
  return {
    send(message, onError) {
      if (!worker.isConnected()) return onError(new Error(`worker ${worker.id} is not connected`));
      worker.send(message, undefined, undefined, (error: Error | null) => {
        if (error) onError(error);
      });
    },
    listen(listener) {
      worker.on('message', listener);
      return () => worker.off('message', listener);
    },
  };
}
