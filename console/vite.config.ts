import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The console is served by the gateway itself: `dist/index.html` for pages, `dist/assets/*` hashed. */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // Nothing inline: the page's Content-Security-Policy allows scripts from 'self' only.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1024,
    rolldownOptions: {
      output: {
        // Libraries in chunks of their own, named after them: they change less often than the app.
        codeSplitting: {
          includeDependenciesRecursively: false,
          groups: [
            {
              name: 'charts',
              test: /node_modules[\\/](recharts|d3-|victory-vendor|@reduxjs|immer|react-redux|reselect)/,
            },
            { name: 'mantine', test: /node_modules[\\/]@mantine/ },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            { name: 'vendor', test: /node_modules/ },
          ],
        },
      },
    },
  },
  server: {
    // `npm run dev` in console/: the gateway runs on its default port beside it.
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
