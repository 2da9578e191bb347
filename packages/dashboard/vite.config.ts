import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The Svc the dev server sends API calls and sign-ins to (`SVC_URL`, http://localhost:8080 by default). */
const target = process.env.SVC_URL ?? 'http://localhost:8080';

/**
 * The built dashboard is served at whatever dashboard base the server has (SVC_DASHBOARD_BASE, `/svc` by
 * default), so index.html refers to its assets relatively (`./assets/…`) and the server makes them
 * absolute for its base (operator-dashboard/bundled-dashboard.ts). Hashed file names let the server
 * cache assets for a year.
 *
 * `npm run dev -w @svc/dashboard` serves the app at http://localhost:5173/svc/ with hot reload and
 * proxies everything else of `/svc` to a running Svc. Sign in at the Svc itself first (its cookie is
 * sent to localhost on any port); the proxy presents the Svc's own origin, as its antiforgery check asks.
 */
export default defineConfig(({ command }) => ({
  base: command === 'serve' ? '/svc/' : './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    // The libraries in chunks of their own: a release that changes only the console's code keeps them cached.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            {
              name: 'react-aria',
              test: /node_modules[\\/](react-aria-components|react-aria|react-stately|@react-aria|@react-stately|@react-types|@internationalized|@swc)[\\/]/,
            },
            { name: 'tanstack', test: /node_modules[\\/]@tanstack[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: Object.fromEntries(
      ['/svc/admin', '/svc/api', '/svc/auth', '/svc/login', '/svc/callback', '/svc/logout'].map((path) => [
        path,
        {
          target,
          changeOrigin: true,
          configure: (proxy) => proxy.on('proxyReq', (request) => request.setHeader('origin', target)),
        },
      ]),
    ),
  },
}));
