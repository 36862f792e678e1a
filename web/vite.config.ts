/// <reference types="vitest/config" />
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

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

/**
 * codemirror-json-schema renders hover and completion docs with markdown-it
 * and shiki, and carries JSON5 and YAML parsers: together most of the Author
 * tab's chunk (927 KB before). The editor needs neither, so its imports of
 * those two files resolve to small local stand-ins instead
 * (src/editor/plainMarkdown.ts, src/editor/jsonOnly.ts; docs/benchmarks/frontend.md). Inside
 * json-schema-library, the query language and the email parser resolve to
 * src/editor/schemaQuery.ts and src/editor/emailFormat.ts likewise.
 */
function trimJsonSchemaEditor(): Plugin {
  const local = (f: string) => fileURLToPath(new URL(`./src/editor/${f}`, import.meta.url));
  const standIns: Record<string, string> = {
    '../utils/markdown': local('plainMarkdown.ts'),
    './json5-parser': local('jsonOnly.ts'),
    './yaml-parser': local('jsonOnly.ts'),
  };
  // json-schema-library's query language (json-query + ebnf) and its email
  // parser (smtp-address-parser + nearley): see the two modules.
  const libraryStandIns: Record<string, string> = {
    '@sagold/json-query': local('schemaQuery.ts'),
    'smtp-address-parser': local('emailFormat.ts'),
  };
  return {
    name: 'trim-json-schema-editor',
    enforce: 'pre',
    resolveId(source, importer) {
      if (importer?.includes('json-schema-library')) return libraryStandIns[source] ?? null;
      if (!importer?.includes('codemirror-json-schema')) return null;
      return standIns[source.replace(/\.js$/, '')] ?? null;
    },
  };
}

export default defineConfig({
  plugins: [trimJsonSchemaEditor(), react()],
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
    // codemirror-json-schema ships ESM with extension-less imports, which
    // Node cannot load; let Vite transform it for the editor's tests.
    server: { deps: { inline: ['codemirror-json-schema'] } },
  },
});
