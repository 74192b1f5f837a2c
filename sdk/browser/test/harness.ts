import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startReceiver, type Receiver } from '../../core/test/receiver';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const dist = (file: string) => readFileSync(fileURLToPath(new URL('../dist/' + file, import.meta.url)));

export interface Harness {
  browser: Browser;
  /** Serves the test pages and the built bundles. */
  site: Receiver;
  /** The ingest stand-in, on another port: every report is a CORS request, as in production. */
  ingest: Receiver;
  /** A URL DSN pointing at `ingest`. */
  dsn: string;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const [site, ingest] = await Promise.all([startReceiver(), startReceiver()]);
  // Launched after the receivers and closing them on failure: a missing Chromium must fail the
  // test, not leave two servers holding the process open (the run would never end).
  const browser = await chromium
    .launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS })
    .catch(async (err) => {
      await Promise.all([site.close(), ingest.close()]);
      throw err;
    });
  site.serve('/tracker.min.js', dist('tracker.min.js'), 'text/javascript');
  site.serve('/index.mjs', dist('index.mjs'), 'text/javascript');
  return {
    browser,
    site,
    ingest,
    dsn: `http://et_browserkey@${ingest.origin.slice('http://'.length)}/1`,
    async close() {
      await browser.close();
      await Promise.all([site.close(), ingest.close()]);
    },
  };
}

let pageCount = 0;

/**
 * Serves a page that loads the IIFE build, calls `Tracker.init(init)` and runs `script`; returns
 * its URL. `head` runs before the SDK loads (to instrument the page).
 */
export function servePage(
  h: Harness,
  options: { init?: Record<string, unknown> | null; script?: string; body?: string; head?: string; path?: string },
): string {
  const path = options.path || `/page-${++pageCount}.html`;
  const init = options.init === null ? '' : `Tracker.init(${JSON.stringify({ dsn: h.dsn, vitals: false, ...options.init })});`;
  h.site.serve(
    path,
    `<!doctype html><html><head><meta charset="utf-8"><title>t</title>
<script>${options.head || ''}</script>
<script src="/tracker.min.js"></script>
<script>${init}</script>
</head><body>${options.body || '<h1>Tracker test page</h1>'}
<script>${options.script || ''}</script></body></html>`,
    'text/html',
  );
  return h.site.origin + path;
}

/** A fresh context per test; page errors are collected so a test can show the SDK threw none. */
export async function openPage(h: Harness, url: string): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await h.browser.newContext();
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(url);
  return { page, pageErrors };
}
