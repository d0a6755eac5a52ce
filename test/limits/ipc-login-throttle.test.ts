import { afterEach, expect, test } from 'vitest';
import { IpcLink } from '../../src/cluster/ipc-link.js';
import { IpcLoginThrottle } from '../../src/limits/ipc-login-throttle.js';
import { PrimaryHub } from '../../src/cluster/primary-hub.js';
import { MAX_FAILED_ATTEMPTS } from '../../src/limits/login-throttle.js';
import { createLogger } from '../../src/observability/logger.js';
import { ipcPortPair } from '../helpers/ipc-port-pair.js';

const links: IpcLink[] = [];
let hub: PrimaryHub;

afterEach(async () => {
  for (const link of links.splice(0)) link.close();
  await hub.close();
});

function workerThrottle(id: number): IpcLoginThrottle {
  const pair = ipcPortPair();
  hub.attach(id, pair.primary);
  const link = new IpcLink(pair.worker);
  links.push(link);
  return new IpcLoginThrottle(link);
}

test('failed sign-in attempts count for the machine, whichever worker takes them', async () => {
  hub = new PrimaryHub({ logger: createLogger('silent') });
  const throttles = [workerThrottle(1), workerThrottle(2)];
  const subjects = ['username:root', 'ip:10.0.0.1'];
  for (let attempt = 0; attempt < MAX_FAILED_ATTEMPTS; attempt += 1)
    expect((await throttles[attempt % 2]!.begin(subjects)).allowed).toBe(true);
  for (const throttle of throttles) expect(await throttle.begin(subjects)).toMatchObject({ allowed: false });
  // Another user from another address is not held back.
  const other = await throttles[0]!.begin(['username:alice', 'ip:10.0.0.2']);
  expect(other.allowed).toBe(true);
  // Its success, told through the other worker, clears its subjects.
  if (other.allowed) await throttles[1]!.succeed(other.ticket, other.ticket.subjects);
  for (let attempt = 0; attempt < MAX_FAILED_ATTEMPTS; attempt += 1)
    expect((await throttles[1]!.begin(['username:alice', 'ip:10.0.0.2'])).allowed).toBe(true);
});
