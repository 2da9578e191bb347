/**
 * The dashboard base (`/svc` unless SVC_DASHBOARD_BASE moved it). The server names it in a meta element
 * of the app's page; the dev server (vite.config.ts) serves the app at `/svc/`.
 */
export const DASHBOARD_BASE = (
  document.querySelector<HTMLMetaElement>('meta[name="svc-dashboard-base"]')?.content ??
  import.meta.env.BASE_URL
).replace(/\/$/, '');
