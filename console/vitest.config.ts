import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  root: import.meta.dirname,
  plugins: [react()],
  test: {
    name: 'console',
    include: ['src/**/*.test.{ts,tsx}'],
    // Logic tests run in Node; component tests ask for jsdom in their first line
    // (`@vitest-environment jsdom`), so only they pay for starting it.
    environment: 'node',
    setupFiles: ['src/test/setup.ts'],
  },
});
