import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative, sep } from 'node:path';

/**
 * The Content-Security-Policy of the bundled dashboard's page: its own scripts and stylesheet from the
 * PublicOrigin, `fetch` to the same origin (the operator APIs), no framing, and no inline script at all.
 * React Aria adds two small `<style>` elements at run time (touch and overscroll behaviour); they carry
 * the page's one-time `nonce`, which the page names in a `csp-nonce` meta element (as React Aria reads
 * it), so no other inline style element applies. Inline style attributes do (`style-src-attr`): the email
 * template preview shows a rendered HTML part in a sandboxed `srcdoc` frame, which inherits this policy,
 * and email HTML is styled inline; an attribute can neither run script nor load anything the other
 * directives refuse (docs/decisions/console-audit-email.md). As on the hosted pages (http/pages/security-headers.ts),
 * `base-uri 'none'` keeps an injected `<base>` from moving the asset URLs, and there is no
 * `form-action`: the sign-out form's redirects end at the hosted logout, which Chrome would check
 * against it.
 */
export function dashboardContentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

export interface DashboardAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

/** The built dashboard (`packages/dashboard/dist`), read once into memory: a few hundred kilobytes. */
export interface BundledDashboard {
  /**
   * The app's page for a dashboard base and a response's style nonce: the build names its assets
   * relatively (`./assets/…`), which would resolve below a deep link's folder (`/svc/users/assets/…`), so
   * they are made absolute here, and meta elements tell the app its base and the nonce.
   */
  indexHtml(dashboardBase: string, nonce: string): string;
  /**
   * A file of `dist/assets/` by its path below `assets/`. Only the files the build wrote are there, so
   * no request path (`..`, encoded or not) can name anything else.
   */
  asset(path: string): DashboardAsset | undefined;
}

/**
 * Where the built dashboard is: the `dist` folder of the `@svc/dashboard` package, found through Node's
 * resolution from this module, so the same code works from `src` (tests), from `dist` (the CLI) and from
 * an installed `@svc/server`. Undefined when the package is not installed.
 */
export function dashboardDistFolder(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@svc/dashboard/package.json')), 'dist');
  } catch {
    return undefined;
  }
}

async function filesBelow(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

async function load(folder: string): Promise<BundledDashboard | undefined> {
  let indexHtml: Buffer;
  try {
    indexHtml = await readFile(join(folder, 'index.html'));
  } catch {
    // A checkout that was never built (or a build without the dashboard): the landing page stays.
    return undefined;
  }
  const assetsFolder = join(folder, 'assets');
  const assets = new Map<string, DashboardAsset>();
  for (const file of await filesBelow(assetsFolder).catch(() => [])) {
    const contentType = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    assets.set(relative(assetsFolder, file).split(sep).join('/'), {
      body: await readFile(file),
      contentType,
    });
  }
  const pages = new Map<string, string>();
  return {
    indexHtml: (base, nonce) => {
      let page = pages.get(base);
      if (page === undefined) {
        page = pageFor(indexHtml.toString('utf8'), base);
        pages.set(base, page);
      }
      return page.replace(NONCE_SLOT, nonce);
    },
    asset: (path) => assets.get(path),
  };
}

const NONCE_SLOT = '\u0000nonce\u0000';

function pageFor(html: string, dashboardBase: string): string {
  const base = dashboardBase.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  const meta = [
    `<meta name="svc-dashboard-base" content="${base}" />`,
    `<meta name="csp-nonce" nonce="${NONCE_SLOT}" />`,
  ];
  return html
    .replaceAll('"./assets/', `"${base}/assets/`)
    .replace('</head>', `  ${meta.join('\n    ')}\n  </head>`);
}

const loaded = new Map<string, Promise<BundledDashboard | undefined>>();

/**
 * The built dashboard in `folder`, or undefined when it was not built. Read once per process (every Svc
 * of a test process shares it); a rebuilt dashboard is served after a restart.
 */
export function bundledDashboard(folder: string | undefined): Promise<BundledDashboard | undefined> {
  if (folder === undefined) return Promise.resolve(undefined);
  let files = loaded.get(folder);
  if (files === undefined) {
    files = load(folder);
    loaded.set(folder, files);
  }
  return files;
}
