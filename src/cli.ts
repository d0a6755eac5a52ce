#!/usr/bin/env node
import { USAGE } from './cli/usage.js';

/**
 * `model-gateway`: alone, the server (as `npm start`); `model-gateway config ...`, the
 * configuration file commands (admin-api section 13).
 */

const [command, ...rest] = process.argv.slice(2);
if (command === undefined) {
  await import('./main.js');
} else if (command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(USAGE);
} else if (command === 'config') {
  const output = {
    out: (text: string) => process.stdout.write(text),
    err: (text: string) => process.stderr.write(text),
  };
  try {
    const { runConfigCommand } = await import('./cli/config-command.js');
    process.exitCode = await runConfigCommand(rest, process.env, output);
  } catch (error) {
    process.stderr.write(`model-gateway config: ${(error as Error).message}\n`);
    process.exitCode = 1;
  }
} else {
  process.stderr.write(`model-gateway: unknown command "${command}"\n\n${USAGE}`);
  process.exitCode = 1;
}
