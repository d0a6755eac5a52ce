import type { IpcPort } from '../../src/cluster/ipc-link.js';

export interface PortPair {
  /** The worker's end (its `process`). */
  worker: IpcPort;
  /** The primary's end (its handle on the worker). */
  primary: IpcPort;
  /** Like a worker that died: sends from either end fail from now on. */
  cut(): void;
}

/**
 * Both ends of an IPC channel in one process, for tests: each message is copied (as the JSON
 * serialisation of a real channel does) and arrives on a later turn of the event loop.
 */
export function ipcPortPair(): PortPair {
  const listeners = {
    worker: new Set<(message: unknown) => void>(),
    primary: new Set<(message: unknown) => void>(),
  };
  let open = true;
  const end = (self: 'worker' | 'primary', other: 'worker' | 'primary'): IpcPort => ({
    send(message, onError) {
      if (!open) return setImmediate(() => onError(new Error('channel closed')));
      const copy: unknown = JSON.parse(JSON.stringify(message));
      setImmediate(() => {
        if (open) for (const listener of listeners[other]) listener(copy);
      });
    },
    listen(listener) {
      listeners[self].add(listener);
      return () => listeners[self].delete(listener);
    },
  });
  return {
    worker: end('worker', 'primary'),
    primary: end('primary', 'worker'),
    cut() {
      open = false;
    },
  };
}
