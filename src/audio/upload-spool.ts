import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where uploaded audio waits on disk while its request is relayed: never in memory whole. Each
 * process names its files after its pid; a process killed mid-upload leaves its files behind, and
 * the next process to spool removes those of processes no longer alive.
 */
export class UploadSpool {
  private swept: Promise<void> | undefined;

  constructor(readonly directory = join(tmpdir(), 'model-gateway-uploads')) {}

  /** A new file path in the spool, for one upload. */
  async newPath(): Promise<string> {
    this.swept ??= this.prepare();
    await this.swept;
    return join(this.directory, `${process.pid}-${randomUUID()}`);
  }

  /** Removes an upload's file; one already gone is fine. */
  async remove(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  private async prepare(): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const names = await readdir(this.directory);
    await Promise.all(
      names
        .filter((name) => !isAlive(Number(name.split('-', 1)[0])))
        .map((name) => rm(join(this.directory, name), { force: true })),
    );
  }
}

/** Whether a process with this pid runs (one of another user's counts as running). */
function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
