import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The web console: a static single-page app that the API serves at `/`. It talks to the API
 * only through the SDK's browser entry, compiled from source here.
 */
export default defineConfig({
  root: here('.'),
  base: '/',
  resolve: { alias: { '@docconv/client': here('../../clients/typescript/src/browser.ts') } },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // `npm run dev:console`: the page on :5173, the API it calls on :3000.
  server: { proxy: { '/api': process.env.DOCCONV_URL ?? 'http://localhost:3000' } },
  build: {
    outDir: here('../../dist/console'),
    emptyOutDir: true,
    target: 'es2022',
    // The console must stay small: the build test holds its JavaScript under 300 kB gzipped.
    chunkSizeWarningLimit: 300,
  },
});
