import { chromium, type Browser, type BrowserContext } from 'playwright-core';

/** Debian's Chromium; playwright-core never downloads a browser of its own. */
export const CHROMIUM_PATH = process.env.SVC_CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface TestBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * One headless Chromium per test process, started on first use: a test process runs many files with
 * their modules kept (vitest.config.ts, `isolate: false`), and starting Chromium with a fresh profile
 * cost each browser file a few seconds. Chromium exits with the process (its control pipe closes). The
 * background-networking flags keep Chromium from reaching out to the internet, which this machine's
 * closed network refuses.
 */
let chromiumProcess: Promise<Browser> | undefined;

function sharedChromium(): Promise<Browser> {
  chromiumProcess ??= chromium
    .launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    .then(
      (browser) => {
        browser.on('disconnected', () => (chromiumProcess = undefined));
        return browser;
      },
      (error: unknown) => {
        chromiumProcess = undefined;
        throw error;
      },
    );
  return chromiumProcess;
}

/**
 * A fresh browser: a context of its own (cookies, storage and cache shared with no other), as a new
 * profile would be, in the test process's Chromium.
 */
export async function launchBrowser(options: { javaScriptEnabled?: boolean } = {}): Promise<TestBrowser> {
  const chromiumBrowser = await sharedChromium();
  const context = await chromiumBrowser.newContext({ javaScriptEnabled: options.javaScriptEnabled ?? true });
  return { context, close: () => context.close() };
}
