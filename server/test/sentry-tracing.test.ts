/**
 * Issue 30, parts 4–6 (decision 046): a page load's Web Vitals from real @sentry/browser 11 with
 * `browserTracingIntegration` in Chromium become one vitals report; events of any SDK get browser
 * and OS tags from a User-Agent, found case-insensitively; dropped envelope items are counted in
 * `/metrics`. Both runtimes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { queryRows } from '@tracker/core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { createTestEnv, MODES, sentryProject, startTracker, waitFor, type TestEnv } from './helpers';
import { bundleSentryBrowser, runNodeScenario, startSite } from './sentry-sdk-harness';
import { buildEnvelope, errorEvent, item, sentryEventId } from './sentry-envelope';

const VITALS = `query($p: ID!) {
  vitals(projectId: $p) { pageViews metrics { metric count p50 } }
  vitalsByUrl(projectId: $p) { url pageViews metrics { metric count p50 } } }`;
const ISSUES_BY_QUERY = `query($p: ID!, $q: String) { issues(projectId: $p, query: $q, first: 50) { totalCount nodes { id title } } }`;
const ISSUE_TAGS = `query($id: ID!) { issue(id: $id) { events(first: 10) { nodes { eventId context tags { key value } } } } }`;
const PASSWORD = 'correct horse battery'; // signUpWithProject's
const STORED_TIMEOUT_MS = 60_000;
const sameId = (a: string, b: string) => a.replace(/-/g, '').toLowerCase() === b.replace(/-/g, '').toLowerCase();

let browser: Browser | undefined;
let site: { origin: string; close(): Promise<void> } | undefined;

before(async () => {
  site = await startSite(new Map([[11, await bundleSentryBrowser(11)]]));
  browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
});

after(async () => {
  await browser?.close().catch(() => undefined);
  await site?.close().catch(() => undefined);
});

for (const mode of MODES) {
  describe(`Sentry tracing, User-Agent tags and dropped items (${mode})`, () => {
    let env: TestEnv | undefined;
    let tracker: Tracker | undefined;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
    });

    after(async () => {
      await tracker?.close().catch(() => undefined);
      await env?.cleanup().catch(() => undefined);
    });

    async function project(name: string) {
      const acct = await sentryProject(tracker!.url, name);
      const { q } = acct;
      /** The tags of the stored event with this SDK id, once stored. */
      const tagsOf = (eventId: string) =>
        waitFor(
          `event ${eventId}`,
          async () => {
            for (const issue of (await q(ISSUES_BY_QUERY, { p: acct.project.id, q: null })).issues.nodes) {
              const events = (await q(ISSUE_TAGS, { id: issue.id })).issue.events.nodes;
              const found = events.find((e: any) => sameId(e.eventId, eventId));
              if (found) {
                return {
                  issue,
                  context: found.context,
                  tags: Object.fromEntries(found.tags.map((t: any) => [t.key, t.value])),
                };
              }
            }
            return undefined;
          },
          STORED_TIMEOUT_MS,
        );
      return { ...acct, dsn: acct.sentryDsn, tagsOf };
    }

    test(
      '@sentry/browser 11 with browserTracingIntegration: a page load is one page view with its five vitals and the URL without query or hash, on the Performance page too; its error gets browser and OS tags and browser.name:chrome finds it',
      { timeout: 240_000 },
      async () => {
        const p = await project('tracing');
        // Chrome as users run it: headless Chromium names itself "HeadlessChrome" in its User-Agent.
        const major = browser!.version().split('.')[0];
        const userAgent = `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
        const context = await browser!.newContext({ userAgent });
        context.setDefaultTimeout(60_000);
        const pageErrors: string[] = [];
        let sent: { exception: string };
        try {
          const page = await context.newPage();
          page.on('pageerror', (e) => pageErrors.push(e.message));
          const config = JSON.stringify({ major: 11, scenario: 'tracing', dsn: p.dsn });
          await page.goto(`${site!.origin}/page.html?config=${encodeURIComponent(config)}#checkout`);
          await page.waitForFunction('window.RESULT || window.FAILED');
          const failed = await page.evaluate('window.FAILED');
          assert.equal(failed, undefined, String(failed));
          sent = (await page.evaluate('window.RESULT')) as { exception: string };
          await page.click('#pay'); // an interaction: INP
          await page.waitForFunction("document.getElementById('pay').textContent === 'Paid'");
          await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))');
          // Leaving the page sends what the SDK holds until then (LCP, CLS, INP spans).
          await page.goto('about:blank');
        } finally {
          await context.close().catch(() => undefined);
        }
        assert.deepEqual(pageErrors, []);

        const pageUrl = `${site!.origin}/page.html`;
        const vitals = await waitFor(
          'the five vitals of the page load',
          async () => {
            const d = await p.q(VITALS);
            const counts = d.vitals.metrics.filter((m: any) => m.count > 0).map((m: any) => m.metric);
            return counts.length === 5 && d;
          },
          STORED_TIMEOUT_MS,
        ).catch(async (err) => {
          const rows = await queryRows(tracker!.db.ds, 'SELECT * FROM vitals_reports WHERE project_id = $1', [
            p.project.id,
          ]);
          throw new Error(`${(err as Error).message}: ${JSON.stringify(rows)}`);
        });
        assert.equal(vitals.vitals.pageViews, 1, 'one page view, however many envelopes carried it');
        assert.deepEqual(
          vitals.vitals.metrics.map((m: any) => [m.metric, m.count]),
          [
            ['LCP', 1],
            ['INP', 1],
            ['CLS', 1],
            ['FCP', 1],
            ['TTFB', 1],
          ],
        );
        const inp = vitals.vitals.metrics.find((m: any) => m.metric === 'INP').p50;
        assert.ok(inp >= 100, `INP ${inp} ms measures the 150 ms click handler`);
        assert.deepEqual(
          vitals.vitalsByUrl.map((u: any) => [u.url, u.pageViews]),
          [[pageUrl, 1]],
        );
        const rows = await queryRows<{ n: number }>(
          tracker!.db.ds,
          'SELECT count(*)::int AS n FROM vitals_reports WHERE project_id = $1',
          [p.project.id],
        );
        assert.equal(rows[0].n, 1, 'one row: the pieces were merged');

        // The error of the same page: browser and OS from the SDK's request User-Agent.
        const { issue, tags } = await p.tagsOf(sent!.exception);
        assert.equal(tags['browser.name'], 'Chrome', JSON.stringify(tags));
        assert.equal(tags.browser, `Chrome ${major}`);
        assert.equal(tags['os.name'], 'Linux');
        for (const query of ['browser.name:chrome', 'browser.name:CHROME', 'os.name:linux']) {
          const found = (await p.q(ISSUES_BY_QUERY, { p: p.project.id, q: query })).issues.nodes;
          assert.deepEqual(
            found.map((i: any) => i.id),
            [issue.id],
            query,
          );
        }
        const none = await p.q(ISSUES_BY_QUERY, { p: p.project.id, q: 'browser.name:firefox' });
        assert.equal(none.issues.totalCount, 0);

        // The Performance page, as a member sees it.
        const dash = await browser!.newContext({ baseURL: tracker!.url });
        dash.setDefaultTimeout(30_000);
        try {
          const page = await dash.newPage();
          await page.goto('/login');
          await page.getByLabel('Email').fill(p.email);
          await page.getByLabel('Password').fill(PASSWORD);
          await page.getByRole('button', { name: /sign in|log in/i }).click();
          await page.waitForURL((u) => u.pathname !== '/login');
          await page.goto(`/projects/${encodeURIComponent(p.project.id)}/performance`);
          const row = page.locator('table.vitals-table tbody tr');
          assert.equal(await row.count(), 1);
          assert.equal(await row.locator('th').innerText(), pageUrl);
          const lcpCard = page.locator('.vital-card', { has: page.locator('#vital-LCP') });
          assert.match(await lcpCard.innerText(), /1 page view/);
        } finally {
          await dash.close().catch(() => undefined);
        }
      },
    );

    test(
      '@sentry/node 11: an error in a request handler gets the browser tags of the request User-Agent, the OS of its own context',
      {
        timeout: 120_000,
      },
      async () => {
        const p = await project('node ua');
        const sent = await runNodeScenario(11, 'evidence', p.dsn);
        assert.equal(sent.flushed, true);
        const { issue, tags, context } = await p.tagsOf(sent.exception);
        assert.equal(tags['browser.name'], 'Chrome', JSON.stringify(tags));
        assert.equal(tags.browser, 'Chrome 131');
        // The server's OS (the SDK's os context: this machine's distribution) wins over the
        // User-Agent's Windows.
        assert.equal(typeof context.os?.name, 'string', JSON.stringify(context.os));
        assert.equal(tags['os.name'], context.os.name);
        assert.notEqual(tags['os.name'], 'Windows');
        const found = (await p.q(ISSUES_BY_QUERY, { p: p.project.id, q: 'browser.name:chrome' })).issues.nodes;
        assert.deepEqual(
          found.map((i: any) => i.id),
          [issue.id],
        );
      },
    );

    test(
      '/metrics counts dropped items by type; a transaction with absurd measurements loses only those, the event beside it is kept',
      {
        timeout: 120_000,
      },
      async () => {
        const p = await project('drops');
        const before = dropCounts(await (await fetch(`${tracker!.url}/metrics`)).text());
        const eventId = sentryEventId();
        const traceId = sentryEventId();
        const transaction = {
          type: 'transaction',
          transaction: '/cart',
          contexts: { trace: { trace_id: traceId, span_id: 'a1b2c3d4e5f60718', op: 'pageload' } },
          request: { url: 'https://shop.example/cart?coupon=SECRET#top' },
          measurements: {
            lcp: { value: -5, unit: 'millisecond' },
            fcp: { value: 'NaN', unit: 'millisecond' },
            ttfb: { value: 1e308, unit: 'millisecond' },
            cls: { value: '0.25', unit: '' },
            inp: { value: 'Infinity', unit: 'millisecond' },
          },
        };
        const absurd = { ...transaction, contexts: { trace: { trace_id: sentryEventId(), op: 'pageload' } } };
        absurd.measurements = { lcp: { value: -1, unit: 'millisecond' } } as any;
        const envelope = buildEnvelope({ event_id: eventId }, [
          item('event', errorEvent(eventId)),
          item('transaction', transaction),
          item('transaction', absurd), // nothing usable left: dropped and counted
          item('transaction', {
            type: 'transaction',
            transaction: 'GET /api',
            contexts: { trace: { op: 'http.server', trace_id: traceId } },
          }),
          item('span', { trace_id: traceId, span_id: '0102030405060708', op: 'db.query' }),
          item('replay_event', { replay_id: sentryEventId(), segment_id: 0 }),
          item('replay_recording', Buffer.from('{"segment_id":0}\n\x00\x01binary')),
          item('attachment', Buffer.from('screenshot bytes'), { filename: 'shot.png' }),
          item('made_up_type', { a: 1 }),
        ]);
        const res = await fetch(`${tracker!.url}/api/${p.number}/envelope/?sentry_key=${p.key}`, {
          method: 'POST',
          body: envelope,
        });
        assert.equal(res.status, 200, await res.clone().text());
        assert.ok(sameId(((await res.json()) as { id: string }).id, eventId));
        const after = dropCounts(await (await fetch(`${tracker!.url}/metrics`)).text());
        const delta = (type: string) => (after.get(type) ?? 0) - (before.get(type) ?? 0);
        assert.equal(delta('transaction'), 2, 'the absurd one and the server transaction');
        assert.equal(delta('span'), 1);
        assert.equal(delta('replay_event'), 1);
        assert.equal(delta('replay_recording'), 1);
        assert.equal(delta('attachment'), 1);
        assert.equal(delta('other'), 1, 'an unknown type is counted as other, not under its own name');
        assert.equal(after.has('made_up_type'), false);

        await p.tagsOf(eventId); // the event is stored
        const stored = await waitFor(
          'the report of the transaction',
          async () => {
            const r = await queryRows<any>(
              tracker!.db.ds,
              'SELECT url, lcp, inp, cls, fcp, ttfb FROM vitals_reports WHERE project_id = $1',
              [p.project.id],
            );
            return r.length > 0 && r;
          },
          STORED_TIMEOUT_MS,
        );
        assert.deepEqual(stored, [
          { url: 'https://shop.example/cart', lcp: null, inp: null, cls: 0.25, fcp: null, ttfb: null },
        ]);
      },
    );
  });
}

/** `tracker_sentry_items_dropped_total{type="…"} n` lines as a map. */
function dropCounts(metrics: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of metrics.matchAll(/^tracker_sentry_items_dropped_total\{type="([^"]+)"\} (\d+)$/gm)) {
    out.set(m[1], Number(m[2]));
  }
  return out;
}
