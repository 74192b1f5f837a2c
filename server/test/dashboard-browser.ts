import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/** Shared by the dashboard's Chromium e2e files. */
export const STEP_TIMEOUT_MS = 15_000;
export const ARTIFACTS = join(__dirname, '../../web/test-artifacts');
export const VIEWPORTS = { desktop: { width: 1280, height: 900 }, mobile: { width: 390, height: 844 } } as const;
/** Issue 7's target: under 150 KB of gzip JavaScript on any page. */
export const MAX_JS_GZIP_BYTES = 150 * 1024;

/**
 * Pages that record every dialog, CSP violation and page error of their documents, so a test
 * can assert that nothing an event or a user wrote ever ran (`assertInert`), and screenshots at
 * desktop and mobile widths that also check nothing widens the page past the viewport.
 */
export function watchedPages(browser: () => Browser, baseURL: () => string) {
  const dialogs: string[] = [];
  const violations: string[] = [];
  const pageErrors: string[] = [];
  mkdirSync(ARTIFACTS, { recursive: true });

  async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser().newContext({ baseURL: baseURL(), viewport: VIEWPORTS.desktop });
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(STEP_TIMEOUT_MS);
    await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
    // Every CSP violation of every document, reported before any page script runs.
    await context.exposeBinding('__reportCsp', (_source, text: string) => void violations.push(text));
    // A string, not a function: this package type-checks without the DOM library.
    await context.addInitScript(`document.addEventListener('securitypolicyviolation', (e) => {
      window.__reportCsp(e.violatedDirective + ' blocked ' + e.blockedURI + ' at ' + e.sourceFile + ':' + e.lineNumber);
    });`);
    const page = await context.newPage();
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss().catch(() => {});
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return { context, page };
  }

  function assertInert(where: string) {
    assert.deepEqual(dialogs, [], `no dialog (${where})`);
    assert.deepEqual(violations, [], `no CSP violation (${where})`);
    assert.deepEqual(pageErrors, [], `no page error (${where})`);
  }

  async function screenshot(page: Page, name: string) {
    for (const [label, viewport] of Object.entries(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      // Nothing widens the page past the viewport (wide tables scroll inside their card).
      const scrollWidth = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      // The widest offenders, to say what overflowed if anything does.
      const wide =
        scrollWidth <= viewport.width
          ? []
          : await page.evaluate(
              `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ${viewport.width} && !e.closest('.tabs')).slice(0, 5).map((e) => e.tagName + '.' + e.getAttribute('class') + ' ' + Math.round(e.getBoundingClientRect().right))`,
            );
      assert.ok(
        scrollWidth <= viewport.width,
        `${name} at ${viewport.width}px is ${scrollWidth}px wide: ${JSON.stringify(wide)}`,
      );
      await page.screenshot({ path: join(ARTIFACTS, `${name}-${label}.png`), fullPage: true });
    }
    await page.setViewportSize(VIEWPORTS.desktop);
  }

  return { newPage, assertInert, screenshot };
}
