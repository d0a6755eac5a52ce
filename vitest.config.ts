import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // One queue for both projects: at most two test files at a time, as the server tests need.
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          include: ['test/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
          pool: 'forks',
        },
      },
      // The web console's component tests (jsdom), configured in console/.
      'console/vitest.config.ts',
    ],
  },
});
