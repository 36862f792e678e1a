/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * The engine's thread pool shares one WebAssembly.Memory between workers,
 * which needs SharedArrayBuffer, which needs a cross-origin isolated page.
 * Both the dev server and `vite preview` (used by the e2e tests) send the
 * two headers; any production host must send them too.
 */
const isolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * The harness page (src/views/harness: classroom views on synthetic traces,
 * for the e2e load test and the frame benchmark) is not part of the app: a
 * build includes it only when PSMR_HARNESS=1 (scripts/test.sh's build for
 * the e2e tests); `vite` dev serves it at /src/views/harness/index.html.
 */
const harness = process.env.PSMR_HARNESS === '1';

export default defineConfig({
  plugins: [react()],
  // The docs are served as static files: the Guide tab reads docs/instructor-guide.md and its images.
  publicDir: '../docs',
  server: { headers: isolation, host: '127.0.0.1', port: 5173, strictPort: false },
  preview: { headers: isolation, host: '127.0.0.1', port: 4173, strictPort: true },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 1500,
    ...(harness ? { rollupOptions: { input: ['index.html', 'src/views/harness/index.html'] } } : {}),
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    environment: 'node',
    // Tests assert results, never speed: on a loaded 2-core machine a test
    // that validates every shipped scenario takes several seconds, so the
    // limit only catches hangs.
    testTimeout: 60_000,
  },
});
