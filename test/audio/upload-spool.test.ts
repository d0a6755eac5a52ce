import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { UploadSpool } from '../../src/audio/upload-spool.js';

const directory = mkdtempSync(path.join(tmpdir(), 'upload-spool-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

test('the first upload sweeps away the files of processes no longer alive, and only those', async () => {
  // Pid 1 is always alive; the highest pid Linux hands out is 4194304.
  const dead = '4194305-left-by-a-killed-process';
  const alive = '1-of-a-running-process';
  const own = `${process.pid}-earlier`;
  for (const name of [dead, alive, own, 'not-a-pid']) writeFileSync(path.join(directory, name), 'audio');
  const spool = new UploadSpool(directory);
  const upload = await spool.newPath();
  expect(path.dirname(upload)).toBe(directory);
  expect(path.basename(upload).startsWith(`${process.pid}-`)).toBe(true);
  expect(readdirSync(directory).sort()).toEqual([alive, own].sort());
  writeFileSync(upload, 'audio');
  await spool.remove(upload);
  await spool.remove(upload);
  expect(readdirSync(directory).sort()).toEqual([alive, own].sort());
});
