import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Names the machine and process namespace this process runs in, so that another process with the
 * same identity can tell by pid whether it is still alive. Empty when the system does not say
 * (then only lease expiry tells a dead owner). The boot id changes with every boot and the pid
 * namespace with every container, so a pid is only ever compared within one namespace.
 */
export function machineIdentity(): string {
  try {
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    const pidNamespace = readlinkSync('/proc/self/ns/pid');
    return `${hostname()}|${bootId}|${pidNamespace}`;
  } catch {
    return '';
  }
}

/** Whether a process with this pid runs in our namespace (one we may not signal still runs). */
export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
