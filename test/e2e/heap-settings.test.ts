import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureGatewayBuilt, repositoryRoot } from '../helpers/built-gateway.js';

const probe = path.join(repositoryRoot, 'test/helpers/pretenuring-probe.mjs');
let dataDir: string;
beforeAll(async () => {
  await ensureGatewayBuilt();
  dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-heap-'));
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Starts `script` with the probe loaded; resolves once `ready` has been printed on `stream`. */
async function startProbed(
  script: string,
  env: Record<string, string>,
  ready: { stream: 'stdout' | 'stderr'; text: string },
): Promise<{ child: ChildProcessWithoutNullStreams; stderrLines: string[] }> {
  const child = spawn(process.execPath, ['--import', probe, script], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  const stderrLines: string[] = [];
  let pending = '';
  child.stderr.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop()!;
    stderrLines.push(...lines);
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child[ready.stream].on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes(ready.text)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${seen}`)));
  });
  return { child, stderrLines };
}

/** How many bytes the probe saw the old generation grow by, asked again when a full collection ran. */
async function oldSpaceGrowth(probed: { child: ChildProcessWithoutNullStreams; stderrLines: string[] }) {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const from = probed.stderrLines.length;
    probed.child.kill('SIGUSR2');
    const line = await new Promise<string>((resolve) => {
      const poll = setInterval(() => {
        const found = probed.stderrLines
          .slice(from)
          .find((text) => /^(old space grew|full collection)/.test(text));
        if (found === undefined) return;
        clearInterval(poll);
        resolve(found);
      }, 20);
    });
    const grown = /^old space grew (-?\d+)$/.exec(line);
    if (grown) return Number(grown[1]);
  }
  throw new Error('a full collection ran during every attempt');
}

test('the gateway keeps short-lived objects young after objects made at the same place were long-lived', async () => {
  // Without the gateway's heap settings, the engine moves such objects straight into the old
  // generation: the probe sees it, so it can tell the settings apart.
  const idleScript = path.join(dataDir, 'idle.mjs');
  writeFileSync(idleScript, 'setInterval(() => {}, 1000);\n');
  const plain = await startProbed(idleScript, {}, { stream: 'stderr', text: 'probe ready' });
  const gateway = await startProbed(
    'dist/main.js',
    { PORT: '0', HOST: '127.0.0.1', GATEWAY_DATA_DIR: dataDir },
    { stream: 'stdout', text: 'gateway ready on' },
  );
  try {
    const plainGrowth = await oldSpaceGrowth(plain);
    const gatewayGrowth = await oldSpaceGrowth(gateway);
    expect(plainGrowth).toBeGreaterThan(30_000_000);
    expect(gatewayGrowth).toBeLessThan(plainGrowth / 2);
  } finally {
    plain.child.kill('SIGKILL');
    gateway.child.kill('SIGKILL');
  }
}, 120_000);
