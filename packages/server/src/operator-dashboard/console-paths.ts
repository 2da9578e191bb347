import { DASHBOARD_SECTIONS } from '@svc/contract';

// Path segments as the console's router writes them (ids, slugs, percent-encoded text), then a query.
const SEGMENTS = /^(?:\/[A-Za-z0-9._~%@:+-]+)*\/?$/;
const QUERY = /^[A-Za-z0-9._~%@:+\-=&,*/]*$/;
const SECTIONS: ReadonlySet<string> = new Set(DASHBOARD_SECTIONS);

/**
 * `value` when it is a page of the console below `dashboardBase` (its home or a section, with an
 * optional query), else null: where the sign-in may send the browser back to, so never another origin,
 * a protocol-relative `//host` or a path outside the console.
 */
export function consolePath(dashboardBase: string, value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000 || !value.startsWith(`${dashboardBase}/`)) return null;
  const [path = '', query, ...more] = value.slice(dashboardBase.length).split('?');
  if (more.length > 0 || (query !== undefined && !QUERY.test(query))) return null;
  if (path === '/') return value;
  const section = path.split('/')[1] ?? '';
  // A dot segment, written or percent-encoded, would climb out of the console once the browser resolves it.
  const climbs = path.includes('/.') || /%2e/i.test(path);
  return SECTIONS.has(section) && SEGMENTS.test(path) && !climbs ? value : null;
}
