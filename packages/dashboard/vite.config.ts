import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The dashboard is served at whatever dashboard base the server has (SVC_DASHBOARD_BASE, `/svc` by
 * default), so index.html refers to its assets relatively (`./assets/…`) and the app finds the base
 * from its own URL (src/api.ts). Hashed file names let the server cache assets for a year.
 */
export default defineConfig({
  base: './',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, assetsInlineLimit: 0 },
});
