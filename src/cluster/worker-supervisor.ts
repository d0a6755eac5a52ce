import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../observability/logger.js';
import { workerPort } from './ipc-ports.js';
import { PrimaryHub } from './primary-hub.js';
import { RespawnBackoff } from './respawn-backoff.js';

export interface WorkerSupervisorOptions {
  count: number;
  logger: Logger;
  /** How long the workers may take to drain on stop before they are killed (ms). */
  drainDeadlineMs: number;
  backoff?: RespawnBackoff;
}

interface Startup {
  resolve(address: string): void;
  reject(error: Error): void;
}

/**
 * Forks the workers (node:cluster: they all accept on the one port the primary listens on),
 * replaces a worker that dies after a backoff that grows while they keep dying, and drains them
 * all on stop. The worker's own SIGTERM handling does the draining: it stops accepting, lets its
 * requests finish within the grace period and writes its usage records.
 */
export class WorkerSupervisor {
  readonly hub: PrimaryHub;
  private readonly workers = new Map<number, Worker>();
  private readonly listening = new Set<number>();
  private readonly respawns = new Set<NodeJS.Timeout>();
  private readonly backoff: RespawnBackoff;
  private startup: Startup | undefined;
  private stopping = false;

  constructor(private readonly options: WorkerSupervisorOptions) {
    this.backoff = options.backoff ?? new RespawnBackoff();
    this.hub = new PrimaryHub({
      logger: options.logger,
      onListening: (workerId, address) => this.workerListening(workerId, address),
    });
  }

  /** Forks every worker; resolves with the address once all listen, fails if one dies first. */
  start(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.startup = { resolve, reject };
      for (let index = 0; index < this.options.count; index += 1) this.fork();
    });
  }

  /** SIGTERM to every worker, then waits for them; true when every one ended cleanly in time. */
  async drain(): Promise<boolean> {
    this.stopping = true;
    this.startup?.reject(new Error('stopped before every worker listened'));
    this.startup = undefined;
    for (const timer of this.respawns) clearTimeout(timer);
    const workers = [...this.workers.values()];
    const exits = workers.map(
      (worker) =>
        new Promise<boolean>((resolve) => {
          if (worker.isDead()) return resolve(worker.process.exitCode === 0);
          worker.once('exit', (code) => resolve(code === 0));
        }),
    );
    for (const worker of workers) worker.process.kill('SIGTERM');
    const deadline = setTimeout(() => {
      for (const worker of workers) {
        if (worker.isDead()) continue;
        this.options.logger.error({ pid: worker.process.pid }, 'worker did not stop in time; killing it');
        worker.process.kill('SIGKILL');
      }
    }, this.options.drainDeadlineMs);
    const clean = await Promise.all(exits);
    clearTimeout(deadline);
    return clean.every(Boolean);
  }

  async close(): Promise<void> {
    await this.hub.close();
  }

  private fork(): void {
    const worker = cluster.fork();
    const forkedAt = Date.now();
    this.workers.set(worker.id, worker);
    this.hub.attach(worker.id, workerPort(worker));
    worker.on('error', (error) =>
      this.options.logger.warn({ err: error, pid: worker.process.pid }, 'worker channel error'),
    );
    worker.once('exit', (code, signal) => this.workerExited({ worker, forkedAt, code, signal }));
  }

  private workerListening(workerId: number, address: string): void {
    this.listening.add(workerId);
    const pid = this.workers.get(workerId)?.process.pid;
    if (this.startup && this.listening.size >= this.options.count) {
      const { resolve } = this.startup;
      this.startup = undefined;
      resolve(address);
    } else if (!this.startup) {
      this.options.logger.info({ pid, address }, 'replacement worker listening');
    }
  }

  private workerExited(exit: { worker: Worker; forkedAt: number; code: number; signal: string }): void {
    const { worker, code, signal } = exit;
    const pid = worker.process.pid;
    this.workers.delete(worker.id);
    this.listening.delete(worker.id);
    this.hub.detach(worker.id);
    if (this.stopping) return;
    if (this.startup) {
      this.startup.reject(new Error(`worker ${pid} ended (${signal || `code ${code}`}) before it listened`));
      this.startup = undefined;
      return;
    }
    const delay = this.backoff.next(Date.now() - exit.forkedAt);
    this.options.logger.error(
      { pid, code, signal, replaceInMs: delay },
      'worker died; its requests in flight are lost, and its reservations are returned by its replacement',
    );
    const timer = setTimeout(() => {
      this.respawns.delete(timer);
      if (!this.stopping) this.fork();
    }, delay);
    this.respawns.add(timer);
  }
}
