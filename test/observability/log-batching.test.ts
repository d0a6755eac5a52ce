import { spawn } from 'node:child_process';
import { beforeAll, expect, test } from 'vitest';
import { ensureGatewayBuilt, repositoryRoot } from '../helpers/built-gateway.js';

beforeAll(ensureGatewayBuilt, 180_000);

/** Runs a module script next to the built logger; resolves with its stdout lines as they came, with times. */
function runWithLogger(script: string, options: { until: (lines: string[]) => boolean; timeoutMs: number }) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: repositoryRoot });
  const lines: { text: string; at: number }[] = [];
  const started = performance.now();
  let buffered = '';
  return new Promise<{ lines: { text: string; at: number }[]; exitCode: number | null }>(
    (resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`timed out with ${lines.length} lines`));
      }, options.timeoutMs);
      // Decoded across reads: a character may be split between two of them.
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        const parts = (buffered + chunk).split('\n');
        buffered = parts.pop() ?? '';
        for (const text of parts) lines.push({ text, at: performance.now() - started });
        if (options.until(lines.map((line) => line.text))) {
          clearTimeout(timer);
          child.kill('SIGKILL');
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ lines, exitCode: code });
      });
    },
  );
}

const importLogger = `import { createLogger } from './dist/observability/logger.js'; const logger = createLogger('info');`;

test('a line written on a quiet process reaches stdout within the flush interval, without more lines after it', async () => {
  const { lines } = await runWithLogger(
    `${importLogger}
     setTimeout(() => { logger.info({ mark: performance.now() }, 'alone'); }, 300);
     setInterval(() => {}, 1000);`,
    { until: (texts) => texts.some((text) => text.includes('"alone"')), timeoutMs: 5_000 },
  );
  const alone = lines.find((line) => line.text.includes('"alone"'))!;
  const writtenAt = JSON.parse(alone.text).mark as number;
  // Written at ~300 ms of the child's clock; the batch goes out within 100 ms, with room for a slow machine.
  expect(alone.at - writtenAt).toBeLessThan(1_000);
});

test('every line written before the process exits is on stdout, the last batch included', async () => {
  const { lines, exitCode } = await runWithLogger(
    `${importLogger}
     for (let index = 0; index < 5000; index += 1) logger.info({ index }, 'burst');
     process.exit(0);`,
    { until: () => false, timeoutMs: 10_000 },
  );
  expect(exitCode).toBe(0);
  const indexes = lines.map((line) => JSON.parse(line.text).index as number);
  expect(indexes).toEqual(Array.from({ length: 5000 }, (_, index) => index));
});

test('lines with characters of several bytes come out whole and in order across batches', async () => {
  const { lines, exitCode } = await runWithLogger(
    `${importLogger}
     for (let index = 0; index < 2000; index += 1) logger.info({ index, text: 'é中🙂'.repeat(index % 7) }, 'wide');
     process.exit(0);`,
    { until: () => false, timeoutMs: 10_000 },
  );
  expect(exitCode).toBe(0);
  const parsed = lines.map((line) => JSON.parse(line.text) as { index: number; text: string });
  expect(parsed.map((line) => line.index)).toEqual(Array.from({ length: 2000 }, (_, index) => index));
  for (const line of parsed) expect(line.text).toBe('é中🙂'.repeat(line.index % 7));
});
