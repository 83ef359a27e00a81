// What the README's Install section asks of a Vite app: ES module workers, so ambi-web's runner
// worker loads what a run needs on demand. The preview serves a strict CSP (no 'unsafe-eval';
// 'wasm-unsafe-eval' for the local model's llama.cpp), as a careful app would.
import { defineConfig } from 'vite';

export default defineConfig({
  worker: { format: 'es' },
  build: { sourcemap: true },
  preview: {
    headers: {
      'Content-Security-Policy':
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:; connect-src 'self'; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'",
    },
  },
});
