import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  ensureGatewayBuilt,
  killBuiltGateway,
  repositoryRoot,
  startBuiltGateway,
} from '../helpers/built-gateway.js';

const probe = path.join(repositoryRoot, 'test/helpers/pretenuring-probe.mjs');
let dataDir: string;
beforeAll(async () => {
  await ensureGatewayBuilt();
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-heap-'));
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Probed {
  child: ChildProcess;
  /** Everything it printed on stdout so far, line by line. */
  lines: string[];
}

/** A Node process that only idles, with the probe loaded; resolves once the probe is ready. */
async function startPlainProbed(): Promise<Probed> {
  const child = spawn(process.execPath, ['--import', probe, '-e', 'setInterval(() => {}, 1000)'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let pending = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    const parts = (pending + chunk.toString()).split('\n');
    pending = parts.pop()!;
    lines.push(...parts);
  });
  await until(lines, 0, (line) => line === 'probe ready');
  return { child, lines };
}

/** The first line from index `from` on that `matches`, once it has been printed. */
function until(lines: string[], from: number, matches: (line: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    const poll = setInterval(() => {
      const found = lines.slice(from).find(matches);
      if (found === undefined) return;
      clearInterval(poll);
      resolve(found);
    }, 20);
  });
}

/** How many bytes the probe saw the old generation grow by, asked again when a full collection ran. */
async function oldSpaceGrowth(probed: Probed): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const from = probed.lines.length;
    probed.child.kill('SIGUSR2');
    const line = await until(probed.lines, from, (text) => /^(old space grew|full collection)/.test(text));
    const grown = /^old space grew (-?\d+)$/.exec(line);
    if (grown) return Number(grown[1]);
  }
  throw new Error('a full collection ran during every attempt');
}

/**
 * The largest growth the probe saw over `rounds` probes, or over as many as it took to pass
 * `enough` (then `rounds` is how many that was).
 */
async function largestGrowth(
  probed: Probed,
  rounds: number,
  enough = Infinity,
): Promise<{ largest: number; rounds: number }> {
  let largest = -Infinity;
  let round = 0;
  while (round < rounds && largest <= enough) {
    largest = Math.max(largest, await oldSpaceGrowth(probed));
    round += 1;
  }
  return { largest, rounds: round };
}

test('the gateway keeps short-lived objects young after objects made at the same place were long-lived', async () => {
  // Without the gateway's heap settings, the engine moves such objects straight into the old
  // generation: the probe sees it, so it can tell the settings apart. The engine takes that
  // decision at a young collection, which may fall late in a probe's run (later still on a busy
  // machine), so a plain process is probed again until it shows it, and the gateway as many times.
  // The plain process is probed before the gateway starts: a gateway starting beside it (loading
  // its modules, migrating its database) held its young collections back past every probe.
  const plain = await startPlainProbed();
  let gateway: Awaited<ReturnType<typeof startBuiltGateway>> | undefined;
  try {
    const plainGrowth = await largestGrowth(plain, 12, 30_000_000);
    expect(plainGrowth.largest).toBeGreaterThan(30_000_000);
    gateway = await startBuiltGateway({ GATEWAY_DATA_DIR: dataDir }, ['--import', probe]);
    const gatewayGrowth = await largestGrowth(gateway, plainGrowth.rounds);
    expect(gatewayGrowth.largest).toBeLessThan(plainGrowth.largest / 2);
  } finally {
    plain.child.kill('SIGKILL');
    if (gateway) await killBuiltGateway(gateway);
  }
}, 120_000);
