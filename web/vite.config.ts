import { vitePlugin as remix } from '@remix-run/dev';
import { defineConfig } from 'vite';

// Loader/action return types follow single fetch (turbo-stream), not JSON serialization.
declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

// Defaults on purpose: the client build lands in build/client (assets under /assets/, public
// path "/") and the server build in build/server/index.js, which @tracker/server loads and
// mounts. Changing either path breaks that contract.
export default defineConfig({
  plugins: [
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
});
