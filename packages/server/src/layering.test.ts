import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = new URL('.', import.meta.url).pathname;
const INFRASTRUCTURE = ['fastify', 'kysely', 'pg', 'better-sqlite3', 'node:http', '@fastify/'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Static imports and re-exports, and dynamic `import('…')` (always a value import). */
function imports(text: string, valuesOnly: boolean): string[] {
  const pattern = valuesOnly
    ? /^\s*(?:import|export)\s+(?!type\b)[^'"]*from\s+'([^']+)'/gm
    : /^\s*(?:import|export)[^'"]*from\s+'([^']+)'/gm;
  const dynamic = /\bimport\(\s*'([^']+)'\s*\)/g;
  return [...text.matchAll(pattern), ...text.matchAll(dynamic)].map((m) => m[1] ?? '');
}

/** docs/architecture.md, rule 8: no source file is over 400 lines; past this a file is split by concept. */
const MAX_LINES = 400;

/** The layer of the capabilities' routes (`routes.ts`, `*-routes.ts`): over their services, under the surfaces. */
const ROUTES = '(routes)';

const files = sourceFiles(SRC).map((path) => {
  const text = readFileSync(path, 'utf8');
  return {
    path: relative(SRC, path),
    text,
    lines: text.split('\n').length - 1, // as wc -l counts them
    imports: imports(text, false),
    valueImports: imports(text, true),
  };
});
const isInfra = (specifier: string) =>
  INFRASTRUCTURE.some((p) => specifier === p || specifier.startsWith(p.endsWith('/') ? p : `${p}/`));

/** The rules of docs/architecture.md "The layers of the server", checked by scanning imports. */
describe('layering', () => {
  it('domain code never imports fastify, kysely, pg, better-sqlite3 or node:http', () => {
    const adapters = /^(app|storage|http|outbound|cli|test-support)\/|routes\.ts$|^index\.ts$/;
    const offenders = files
      .filter((f) => !adapters.test(f.path))
      .flatMap((f) => f.imports.filter(isInfra).map((i) => `${f.path} imports ${i}`));
    expect(offenders).toEqual([]);
  });

  it('routes never touch storage', () => {
    const offenders = files
      .filter((f) => f.path.endsWith('routes.ts') || f.path.startsWith('http/'))
      .flatMap((f) =>
        f.imports
          .filter((i) => i.includes('/storage/') || i === 'kysely')
          .map((i) => `${f.path} imports ${i}`),
      );
    expect(offenders).toEqual([]);
  });

  it('storage knows no services and no HTTP', () => {
    const offenders = files
      .filter((f) => f.path.startsWith('storage/'))
      .flatMap((f) =>
        f.imports
          .filter((i) => /fastify|\/http\/|\/app\/|service/.test(i) && !i.endsWith('/repository.js'))
          .map((i) => `${f.path} imports ${i}`),
      );
    expect(offenders).toEqual([]);
  });

  it('repositories import only the repository interfaces they implement (and the kernel)', () => {
    expect(repositoryOffenders(files)).toEqual([]);
  });

  it('the repository rule fails on a file that breaks it', () => {
    const violating = [
      { path: 'storage/repositories/x.ts', imports: ['../../audit/audit-log.js'], valueImports: [] },
      {
        path: 'storage/repositories/y.ts',
        imports: ['../../mfa/mfa-service.js'],
        valueImports: ['../../mfa/mfa-service.js'],
      },
      {
        path: 'storage/repositories/ok.ts',
        imports: ['../../mfa/repository.js', '../../kernel/errors.js', '../database.js'],
        valueImports: ['../../kernel/errors.js', '../database.js'],
      },
    ];
    expect(repositoryOffenders(violating)).toEqual([
      'storage/repositories/x.ts imports ../../audit/audit-log.js',
      'storage/repositories/y.ts imports ../../mfa/mfa-service.js',
    ]);
  });

  it('only app/ wires capabilities together: outside app/ and cli/, app/ is used for types only', () => {
    const offenders = files
      .filter((f) => !/^(app|cli|test-support)\//.test(f.path) && f.path !== 'index.ts')
      .flatMap((f) => f.valueImports.filter((i) => i.includes('/app/')).map((i) => `${f.path} imports ${i}`));
    expect(offenders).toEqual([]);
  });

  it('the hosted pages, the headless API, the direct helpers and the setup portal are sibling surfaces: none imports another, nor http/ any', () => {
    expect(surfaceOffenders(files)).toEqual([]);
  });

  it('no import cycle, type imports included', () => {
    expect(importCycles(files)).toEqual([]);
  });

  it('the cycle rule fails on files that import each other, however long the loop', () => {
    const violating = [
      { path: 'signin/a.ts', imports: ['./b.js', '../kernel/clock.js'] },
      { path: 'signin/b.ts', imports: ['../oauth/c.js'] },
      { path: 'oauth/c.ts', imports: ['../signin/a.js'] },
      { path: 'kernel/clock.ts', imports: [] },
      { path: 'x/self.ts', imports: ['./self.js'] },
      { path: 'x/index.ts', imports: ['./y.js'] },
      { path: 'x/y.ts', imports: ['./index.js', '@svc/contract'] },
    ];
    expect(importCycles(violating)).toEqual([
      'oauth/c.ts, signin/a.ts, signin/b.ts',
      'x/index.ts, x/y.ts',
      'x/self.ts',
    ]);
  });

  it('no lower layer imports a higher one', () => {
    expect(upwardImports(files)).toEqual([]);
  });

  it('the layer rule fails on an import from a lower layer to a higher one', () => {
    const violating = [
      { path: 'directory/x.ts', imports: ['../signin/password-authenticator.js', '../kernel/clock.js'] },
      { path: 'oauth/tokens/y.ts', imports: ['../../config/resolve.js', '../../config/options.js'] },
      { path: 'scim/routes.ts', imports: ['../http/errors.js', '../app/facades/svc-admin-service.js'] },
      {
        path: 'admin/z-routes.ts',
        imports: ['../app/facades/svc-admin-service.js', '../storage/database.js'],
      },
      { path: 'kernel/version.ts', imports: [] },
    ];
    expect(upwardImports(violating)).toEqual([
      'directory/x.ts (directory/) imports ../signin/password-authenticator.js (signin/)',
      'oauth/tokens/y.ts (oauth/) imports ../../config/resolve.js (config/)',
      'admin/z-routes.ts (admin/) imports ../storage/database.js (storage/)',
    ]);
  });

  it("no class extends another of the server's own (errors excepted): files split by composition", () => {
    expect(ownSubclasses(files)).toEqual([]);
  });

  it('the inheritance rule fails on a class that extends one of ours, not on a library or an error class', () => {
    const violating = [
      {
        path: 'admin/a.ts',
        text: 'export class SvcAdminRecords {}\nexport class SvcAdminSso extends SvcAdminRecords {}',
      },
      { path: 'admin/b.ts', text: 'class Base<T> {}\nexport class Derived extends Base<string> {}' },
      {
        path: 'kernel/errors.ts',
        text: 'export class SvcError extends Error {}\nclass SvcNotFoundError extends SvcError {}',
      },
      { path: 'fga/c.ts', text: 'class BoundedMap<K, V> extends Map<K, V> {}' },
    ];
    expect(ownSubclasses(violating)).toEqual([
      'admin/a.ts: SvcAdminSso extends SvcAdminRecords',
      'admin/b.ts: Derived extends Base',
    ]);
  });

  it(`no source file is over ${MAX_LINES} lines`, () => {
    expect(oversized(files)).toEqual([]);
  });

  it('the size rule fails on a long file', () => {
    expect(
      oversized([
        { path: 'x/long.ts', lines: MAX_LINES + 1 },
        { path: 'x/ok.ts', lines: 10 },
      ]),
    ).toEqual([`x/long.ts has ${MAX_LINES + 1} lines`]);
  });

  it('imports are read from dynamic import() too', () => {
    const text = "const late = await import('../hosted/form.js');\nimport type { A } from './a.js';";
    expect(imports(text, false)).toEqual(['./a.js', '../hosted/form.js']);
    expect(surfaceOffenders([{ path: 'headless/x.ts', imports: imports(text, false) }])).toEqual([
      'headless/x.ts imports ../hosted/form.js',
    ]);
  });

  it('the sign-in engine imports no method: methods register with it from app/', () => {
    expect(engineOffenders(files)).toEqual([]);
  });

  it('nothing outside the surfaces and the wiring imports a surface', () => {
    expect(surfaceUserOffenders(files)).toEqual([]);
  });

  it('the engine rule and the surface-user rule fail on files that break them', () => {
    const violating = [
      { path: 'signin/flow/x.ts', imports: ['../methods/mfa/mfa-steps.js'] },
      { path: 'signin/flow/ok.ts', imports: ['./repository.js', '../sign-in-engine.js'] },
      { path: 'signin/methods/mfa/ok.ts', imports: ['../../flow/authorize-flow.js'] },
      { path: 'oauth/y.ts', imports: ['../hosted/form.js'] },
      { path: 'signin/z.ts', imports: ['../headless/view-models.js'] },
      { path: 'app/ok.ts', imports: ['../hosted/routes.js', '../headless/routes.js'] },
    ];
    expect(engineOffenders(violating)).toEqual(['signin/flow/x.ts imports ../methods/mfa/mfa-steps.js']);
    expect(surfaceUserOffenders(violating)).toEqual([
      'oauth/y.ts imports ../hosted/form.js',
      'signin/z.ts imports ../headless/view-models.js',
    ]);
  });

  it('the surface rule fails on a file that breaks it', () => {
    const violating = [
      { path: 'headless/x.ts', imports: ['../hosted/form.js'], valueImports: [] },
      { path: 'hosted/y.ts', imports: ['../headless/app-owned-ui.js'], valueImports: [] },
      { path: 'http/z.ts', imports: ['../hosted/errors.js'], valueImports: [] },
      { path: 'hosted/ok.ts', imports: ['../http/cookies.js', './form.js'], valueImports: [] },
    ];
    expect(surfaceOffenders(violating)).toEqual([
      'headless/x.ts imports ../hosted/form.js',
      'hosted/y.ts imports ../headless/app-owned-ui.js',
      'http/z.ts imports ../hosted/errors.js',
    ]);
  });
});

/** Which surface folders each folder must not import (types included): surfaces are siblings over the sign-in. */
const FORBIDDEN_SURFACES: Readonly<Record<string, readonly string[]>> = {
  hosted: ['headless', 'direct', 'setup-portal'],
  headless: ['hosted', 'direct', 'setup-portal'],
  direct: ['hosted', 'headless', 'setup-portal'],
  'setup-portal': ['hosted', 'headless', 'direct'],
  http: ['hosted', 'headless', 'direct', 'setup-portal'],
};

function surfaceOffenders(list: readonly { path: string; imports: readonly string[] }[]): string[] {
  return list.flatMap((f) => {
    const forbidden = FORBIDDEN_SURFACES[f.path.split('/')[0] ?? ''] ?? [];
    return f.imports
      .filter((i) => forbidden.some((surface) => new RegExp(`(^|/)${surface}/`).test(i)))
      .map((i) => `${f.path} imports ${i}`);
  });
}

/** Where a relative import of the file at `from` points, relative to src/. */
function target(from: string, specifier: string): string {
  return specifier.startsWith('.') ? posix.join(posix.dirname(from), specifier) : specifier;
}

function engineOffenders(list: readonly { path: string; imports: readonly string[] }[]): string[] {
  return list
    .filter((f) => f.path.startsWith('signin/flow/'))
    .flatMap((f) =>
      f.imports
        .filter((i) => target(f.path, i).startsWith('signin/methods/'))
        .map((i) => `${f.path} imports ${i}`),
    );
}

/**
 * The surfaces (HTML pages, the headless API, the direct JSON helpers, the SSO setup portal in setup-portal/); only they,
 * the wiring and the test support import them.
 */
const SURFACES = ['hosted/', 'headless/', 'direct/', 'setup-portal/'];
const SURFACE_USERS = /^(hosted|headless|direct|setup-portal|app|cli|test-support)\/|^index\.ts$/;

function surfaceUserOffenders(list: readonly { path: string; imports: readonly string[] }[]): string[] {
  return list
    .filter((f) => !SURFACE_USERS.test(f.path))
    .flatMap((f) =>
      f.imports
        .filter((i) => SURFACES.some((surface) => target(f.path, i).startsWith(surface)))
        .map((i) => `${f.path} imports ${i}`),
    );
}

/**
 * Of the server's own code outside storage/, a repository imports the kernel and the repository
 * interface it implements (a domain's `repository.ts` or `*-repository.ts`, with its constants),
 * nothing of a service. Packages (kysely, the contract's types) are the infrastructure rule's business.
 */
function repositoryOffenders(list: readonly { path: string; imports: readonly string[] }[]): string[] {
  return list
    .filter((f) => f.path.startsWith('storage/repositories/'))
    .flatMap((f) =>
      f.imports
        .filter((i) => {
          const to = target(f.path, i);
          if (!i.startsWith('.') || to.startsWith('storage/') || to.startsWith('kernel/')) return false;
          return !/(^|\/|-)repository\.js$/.test(to);
        })
        .map((i) => `${f.path} imports ${i}`),
    );
}

function oversized(list: readonly { path: string; lines: number }[]): string[] {
  return list.filter((f) => f.lines > MAX_LINES).map((f) => `${f.path} has ${f.lines} lines`);
}

/** The source file a relative import resolves to (`./x.js` is x.ts or x/index.ts), if it is one of `known`. */
function resolved(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = target(from, specifier).replace(/\.js$/, '');
  return [`${base}.ts`, `${base}/index.ts`].find((candidate) => known.has(candidate));
}

/** The import cycles (strongly connected components, Tarjan's algorithm), each as its sorted files. */
function importCycles(list: readonly { path: string; imports: readonly string[] }[]): string[] {
  const known = new Set(list.map((f) => f.path));
  const edges = new Map(
    list.map((f) => [f.path, f.imports.flatMap((i) => resolved(f.path, i, known) ?? [])]),
  );
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[] = [];
  const visit = (file: string): void => {
    order.set(file, order.size);
    low.set(file, order.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!order.has(next)) visit(next);
      if (onStack.has(next)) low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
    }
    if (low.get(file) !== order.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (edges.get(file) ?? []).includes(file)) {
      cycles.push(component.sort().join(', '));
    }
  };
  for (const f of list) if (!order.has(f.path)) visit(f.path);
  return cycles.sort();
}

/**
 * The layers, lowest first: a file may import its own layer and the layers below it. The kernel and the
 * public option types at the bottom; then the capabilities, each on the ones it builds on (the directory
 * under everything that reads users, organizations and clients; the sign-in under the enterprise features
 * that start sign-ins); then configuration (which resolves every capability's settings), the shared web
 * kit, the operators' authentication, the in-process API, the capabilities' routes, the surfaces, the
 * storage that implements every repository, and the wiring.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['kernel/'],
  ['audit/'],
  ['ratelimit/'],
  ['config/options.ts'],
  ['email/'],
  ['sms/'],
  ['directory/'],
  ['settings/'],
  ['organizations/'],
  ['outbound/'],
  ['applications/'],
  ['oauth/'],
  ['account/'],
  ['federation/'],
  ['signin/'],
  ['fga/'],
  ['scim/'],
  ['scim-mappings/'],
  ['calendar/'],
  ['health/'],
  ['config/'],
  ['http/'],
  ['operator-dashboard/'],
  ['app/facades/'],
  [ROUTES],
  ['hosted/', 'headless/', 'direct/', 'setup-portal/', 'admin/'],
  ['storage/'],
  ['app/'],
  ['cli/'],
  ['index.ts'],
  ['test-support/'],
];

/** The layer of a file: its longest matching prefix; a capability's routes sit with the routes. */
function layerOf(path: string): { readonly index: number; readonly name: string } {
  let best = { index: -1, name: '', length: -1 };
  LAYERS.forEach((prefixes, index) => {
    for (const prefix of prefixes) {
      if (prefix !== ROUTES && path.startsWith(prefix) && prefix.length > best.length) {
        best = { index, name: prefix, length: prefix.length };
      }
    }
  });
  const routes = LAYERS.findIndex((prefixes) => prefixes.includes(ROUTES));
  if (/(^|\/|-)routes\.ts$/.test(path) && routes > best.index) return { index: routes, name: ROUTES };
  return best;
}

function upwardImports(list: readonly { path: string; imports: readonly string[] }[]): string[] {
  const known = new Set(list.map((f) => f.path));
  return list.flatMap((f) => {
    const from = layerOf(f.path);
    return f.imports.flatMap((i) => {
      const to = resolved(f.path, i, known) ?? target(f.path, i).replace(/\.js$/, '.ts');
      if (!i.startsWith('.')) return [];
      const layer = layerOf(to);
      return layer.index > from.index ? [`${f.path} (${from.name}) imports ${i} (${layer.name})`] : [];
    });
  });
}

const CLASS = /\bclass\s+(\w+)(?:<[^>{]*>)?(?:\s+extends\s+(\w+))?/g;

/** Classes that extend a class declared in the server itself; error classes form the one hierarchy. */
function ownSubclasses(list: readonly { path: string; text: string }[]): string[] {
  const own = new Set(list.flatMap((f) => [...f.text.matchAll(CLASS)].map((m) => m[1] ?? '')));
  return list.flatMap((f) =>
    [...f.text.matchAll(CLASS)]
      .filter(([, , base]) => base !== undefined && own.has(base) && !base.endsWith('Error'))
      .map(([, name, base]) => `${f.path}: ${name ?? ''} extends ${base ?? ''}`),
  );
}
