import axe from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { SvcOptions } from '../config/options.js';
import { launchBrowser, type TestBrowser } from './browser.js';
import { signInWithPassword } from './browser-flow.js';
import { serveHostedApp, type ServedHostedApp } from './served-hosted-app.js';

/** A console test's world: a served Svc, a Chromium context signed in as an operator, what went wrong. */
export interface ConsoleFixture {
  readonly served: ServedHostedApp;
  readonly browser: TestBrowser;
  readonly operator: { readonly id: string; readonly email: string; readonly displayName: string };
  /** Console errors, uncaught exceptions and CSP refusals of every page opened: a test expects none. */
  readonly problems: string[];
  /** A new tab at `path` (below `/svc`), already signed in; waits for the console's frame. */
  open(path?: string): Promise<Page>;
  close(): Promise<void>;
}

function watch(page: Page, problems: string[]): Page {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  return page;
}

/**
 * A served Svc with an operator signed in to the console once through the hosted pages (the cookie is
 * the context's, so every tab after is signed in), for files that drive the console's pages. `options`
 * go to the service (for example `smtpUrl`, or code-owned configuration a page shows).
 */
export async function startConsole(options: SvcOptions = {}): Promise<ConsoleFixture> {
  const served = await serveHostedApp(options);
  const browser = await launchBrowser();
  const problems: string[] = [];
  const operator = await served.hosted.given.user();
  await served.hosted.t.svc.admin.setOperatorAsync(operator.email);
  const first = watch(await browser.context.newPage(), problems);
  await first.goto(`${served.origin}/svc/`);
  await signInWithPassword(first, operator.email);
  await first.getByRole('navigation', { name: 'Sections' }).waitFor();
  await first.close();
  return {
    served,
    browser,
    operator,
    problems,
    async open(path = '/') {
      const page = watch(await browser.context.newPage(), problems);
      await page.goto(`${served.origin}/svc${path}`);
      await page.getByRole('navigation', { name: 'Sections' }).waitFor();
      return page;
    },
    async close() {
      await browser.close();
      await served.close();
    },
  };
}

/**
 * What axe-core finds wrong with the page as it is now (WCAG 2.2 A and AA rules and best practices), one
 * line per rule with the elements it names; a test expects none. Evaluated through the DevTools protocol,
 * which the page's CSP does not govern. React Aria's live announcer is left out: a pending button it
 * announced is named there by reference for a few seconds, and a form that has since closed leaves the
 * reference dangling (an empty announcement, not a fault of the page).
 */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  // Injected once a document: the console's links change the page without loading a new one.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const context = { exclude: [['[data-live-announcer]']] };
    const result = await (window as unknown as { axe: typeof axe }).axe.run(context, {
      resultTypes: ['violations'],
    });
    return result.violations.map(
      (rule) => `${rule.id}: ${rule.help} (${rule.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
  });
  return violations;
}

/** The dialog named `name`, once open; axe checks the page with it unless `checked` says it did already. */
export async function openedDialog(page: Page, name: string, checked = false): Promise<Locator> {
  const opened = page.getByRole('dialog', { name });
  await opened.waitFor();
  if (!checked) expect(await accessibilityProblems(page)).toEqual([]);
  return opened;
}

/** Opens the React Aria select labelled `label` in `scope` and picks `option`. */
export async function pickOption(scope: Locator, page: Page, label: string, option: string): Promise<void> {
  await scope.getByRole('button', { name: new RegExp(`${label}$`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}
