import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, VIEWPORTS } from './dashboard-browser';

/**
 * The checks every dashboard page must pass, run by dashboard-walk.e2e.test.ts on each page at
 * 1280 and 390 px: no two elements share an id, nothing is wider than the viewport, every
 * project tab can be scrolled to and is not covered, and axe-core finds no critical or serious
 * violation. Written as strings evaluated in the page: this package type-checks without the DOM
 * library, and `evaluate` runs outside the page's CSP (axe is never a script the page loads).
 */

export const WALK_ARTIFACTS = join(ARTIFACTS, 'walk');
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** Ids used by more than one element, with how many times. */
export async function duplicateIds(page: Page): Promise<Record<string, number>> {
  return (await page.evaluate(`(() => {
    const seen = {};
    for (const el of document.querySelectorAll('[id]')) seen[el.id] = (seen[el.id] || 0) + 1;
    return Object.fromEntries(Object.entries(seen).filter(([, n]) => n > 1));
  })()`)) as Record<string, number>;
}

/** The document's width against the viewport's, and the widest offenders when it overflows. */
export async function overflow(page: Page, width: number): Promise<{ scrollWidth: number; offenders: string[] }> {
  return (await page.evaluate(`(() => {
    const scrollWidth = document.documentElement.scrollWidth;
    const offenders = scrollWidth <= ${width} ? [] : [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > ${width} + 0.5)
      .filter((e) => !e.closest('.table-scroll, .tabs, pre, .range-links'))
      .slice(0, 6)
      .map((e) => e.tagName.toLowerCase() + '.' + (e.getAttribute('class') || '') + ' → ' + Math.round(e.getBoundingClientRect().right));
    return { scrollWidth, offenders };
  })()`)) as { scrollWidth: number; offenders: string[] };
}

/** Critical and serious axe-core violations of the page as it is now. */
export async function axeViolations(page: Page): Promise<AxeFinding[]> {
  if (!(await page.evaluate(`typeof window.axe === 'object'`))) await page.evaluate(`${AXE_SOURCE}\n;undefined`);
  return (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' ')) })))`)) as AxeFinding[];
}

/**
 * Each link of the tab bars lies within the viewport and is the element under its own centre (not
 * covered, not clipped away): in its bar, scrolled into view, or, for a project tab a phone folds
 * away, in the bar's visible "More" menu once that is opened. Answers the tabs that are not reachable.
 */
export async function unreachableTabs(page: Page, width: number): Promise<string[]> {
  const tabs = page.locator('nav.tabs > a');
  const count = await tabs.count();
  const bad: string[] = [];
  for (let i = 0; i < count; i++) {
    const tab = tabs.nth(i);
    const name = (await tab.innerText()).trim() || (await tab.textContent())?.trim() || '';
    if (await tab.isVisible()) {
      await tab.scrollIntoViewIfNeeded();
      const problem = await unreachable(page, tab, name, width);
      if (problem) bad.push(problem);
      continue;
    }
    const more = tab.locator('xpath=..').locator(':scope > details.tabs-more');
    if ((await more.count()) === 0 || !(await more.locator('summary').isVisible())) {
      bad.push(`${name} is hidden and its bar has no visible "More"`);
      continue;
    }
    const wasOpen = await more.evaluate((d) => (d as { open: boolean }).open);
    if (!wasOpen) await more.locator('summary').click();
    const entry = more.locator('a', { hasText: name });
    const problem =
      (await entry.count()) === 0 ? `${name} is not under "More"` : await unreachable(page, entry, name, width);
    if (problem) bad.push(`${problem} (under "More")`);
    if (!wasOpen) await more.locator('summary').click();
  }
  return bad;
}

async function unreachable(
  page: Page,
  link: ReturnType<Page['locator']>,
  name: string,
  width: number,
): Promise<string | null> {
  const box = await link.boundingBox();
  if (!box || box.x < 0 || box.x + box.width > width + 0.5 || box.width < 24 || box.height < 24) {
    return `${name} at ${JSON.stringify(box)}`;
  }
  const hit = await page.evaluate(
    `(() => { const el = document.elementFromPoint(${box.x + box.width / 2}, ${box.y + box.height / 2}); return el ? (el.closest('a') || el).textContent.trim() : null; })()`,
  );
  return hit === name ? null : `${name} is covered by ${JSON.stringify(hit)}`;
}

/** Every check at both widths, a screenshot of each; `name` names the files. */
export async function checkPage(page: Page, name: string, { axe = true }: { axe?: boolean } = {}): Promise<void> {
  mkdirSync(WALK_ARTIFACTS, { recursive: true });
  assert.deepEqual(await duplicateIds(page), {}, `${name}: duplicate ids`);
  for (const [label, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    // At both widths: a table that scrolls only on a phone must still be reachable by keyboard.
    if (axe) {
      assert.deepEqual(
        await axeViolations(page),
        [],
        `${name} at ${viewport.width} px: axe-core critical or serious violations`,
      );
    }
    const { scrollWidth, offenders } = await overflow(page, viewport.width);
    assert.ok(
      scrollWidth <= viewport.width,
      `${name} at ${viewport.width} px is ${scrollWidth} px wide: ${JSON.stringify(offenders)}`,
    );
    if (label === 'mobile')
      assert.deepEqual(await unreachableTabs(page, viewport.width), [], `${name}: tabs at 390 px`);
    await page.screenshot({ path: join(WALK_ARTIFACTS, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}
