import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { bundledDashboard } from './bundled-dashboard.js';

const emptyFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'svc-dashboard-'));
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
};

describe('the built dashboard on disk', () => {
  it('is absent without a build, so the landing page stays', async () => {
    expect(await bundledDashboard(undefined)).toBeUndefined();
    expect(await bundledDashboard(emptyFolder())).toBeUndefined();
  });

  it('serves only the files the build wrote below assets/, with their content types', async () => {
    const dist = emptyFolder();
    mkdirSync(join(dist, 'assets', 'fonts'), { recursive: true });
    writeFileSync(
      join(dist, 'index.html'),
      '<!doctype html><head><script type="module" src="./assets/app-1.js"></script></head>',
    );
    writeFileSync(join(dist, 'secret.txt'), 'not an asset');
    writeFileSync(join(dist, 'assets', 'app-1a2b.css'), 'body{}');
    writeFileSync(join(dist, 'assets', 'fonts', 'x.woff2'), 'font');
    const bundled = await bundledDashboard(dist);
    // Absolute asset URLs, so that a deep link (`/svc/users/usr_1`) loads the same files.
    expect(bundled?.indexHtml('/console', 'n0nce')).toBe(
      '<!doctype html><head><script type="module" src="/console/assets/app-1.js"></script>' +
        '  <meta name="svc-dashboard-base" content="/console" />\n' +
        '    <meta name="csp-nonce" nonce="n0nce" />\n  </head>',
    );
    expect(bundled?.asset('app-1a2b.css')?.contentType).toBe('text/css; charset=utf-8');
    expect(bundled?.asset('fonts/x.woff2')?.contentType).toBe('font/woff2');
    for (const path of ['../secret.txt', '../index.html', 'fonts/../app-1a2b.css', '/etc/passwd']) {
      expect(bundled?.asset(path), path).toBeUndefined();
    }
  });
});
