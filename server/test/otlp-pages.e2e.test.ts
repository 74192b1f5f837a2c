/**
 * What OpenTelemetry data looks like on the dashboard (issue 34), in Chromium against an embedded
 * Tracker fed by OpenTelemetry's own SDKs and exporters: the Logs page filtered by service and
 * by attribute, and an OTLP exception's issue page with its trace id linked to the trace viewer
 * the project set on its Settings page. Screenshots at 1280 and 390 px, axe-core clean.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Tracker } from '../src';
import { watchedPages } from './dashboard-browser';
import { createTestEnv, gqlOk, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';
import { runOtlpSender } from './otlp-harness';
import { checkPage } from './page-checks';

const PASSWORD = 'correct horse battery'; // signUpWithProject's

describe('OpenTelemetry data on the dashboard (embedded, Chromium)', () => {
  let env: TestEnv | undefined;
  let tracker: Tracker | undefined;
  let browser: Browser | undefined;
  let url: string;

  before(async () => {
    env = await createTestEnv('embedded');
    tracker = await startTracker(env, { roles: ['ingest', 'worker', 'api', 'web'] });
    url = tracker.url;
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close().catch(() => {});
    await tracker?.close().catch(() => {});
    await env?.cleanup().catch(() => {});
  });

  const { newPage, assertInert } = watchedPages(
    () => browser!,
    () => url,
  );

  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in|log in/i }).click();
    await page.waitForURL((u) => u.pathname !== '/login');
  }

  test('the Logs page filters OTLP logs by service and by attribute; a malformed attribute filter says why', async () => {
    const p = await signUpWithProject(url, 'otel-logs');
    const sent = await runOtlpSender('logs', 'proto', `${url}/v1/logs`, { 'x-tracker-key': p.key });
    assert.deepEqual(sent.results, [0]);
    await waitFor(
      'three logs',
      async () => {
        const d = await gqlOk(
          url,
          `query($p: ID!) { logs(projectId: $p, first: 10) { nodes { id } } }`,
          { p: p.project.id },
          p.token,
        );
        return d.logs.nodes.length >= 3;
      },
      30_000,
    );
    const { page, context } = await newPage();
    try {
      await signIn(page, p.email);
      const logsPage = `/projects/${encodeURIComponent(p.project.id)}/logs`;
      const messages = () => page.locator('.log-message').allInnerTexts();
      await page.goto(logsPage);
      assert.equal((await messages()).length, 3, 'unfiltered: every log');
      await page.getByLabel('Service').fill('checkout');
      await page.getByLabel('Attribute').fill('order.id=A-1042');
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL((u) => u.searchParams.get('attr') === 'order.id=A-1042');
      assert.deepEqual(await messages(), ['payment retried'], 'the attribute filter keeps only the matching log');
      await checkPage(page, 'otlp-logs-filtered');

      await page.goto(`${logsPage}?service=billing`);
      assert.deepEqual(await messages(), [], 'another service shows none');

      await page.goto(`${logsPage}?attr=no-equals-sign`);
      assert.match(await page.getByRole('alert').innerText(), /not an attribute filter: write it as key=value/);
      assertInert('logs page');
    } finally {
      await context.close();
    }
  });

  test("an OTLP exception's issue page shows its trace id and opens the trace viewer set in Settings", async () => {
    const p = await signUpWithProject(url, 'otel-traces');
    const sent = await runOtlpSender('traces', 'http', `${url}/v1/traces`, { 'x-tracker-key': p.key });
    assert.deepEqual(sent.results, [0]);
    const issueId = await waitFor(
      'the OTLP issue',
      async () => {
        const d = await gqlOk(
          url,
          `query($p: ID!) { issues(projectId: $p, first: 1) { nodes { id } } }`,
          { p: p.project.id },
          p.token,
        );
        return d.issues.nodes[0]?.id as string | undefined;
      },
      30_000,
    );
    const { page, context } = await newPage();
    try {
      await signIn(page, p.email);
      const issuePage = `/projects/${encodeURIComponent(p.project.id)}/issues/${issueId}`;
      await page.goto(issuePage);
      const trace = page.locator('.event-trace');
      assert.match(await trace.innerText(), new RegExp(sent.traceId));
      assert.equal(await trace.getByRole('link', { name: 'Open trace' }).count(), 0, 'no link before one is set');

      await page.goto(`/projects/${encodeURIComponent(p.project.id)}/settings`);
      await page.getByLabel('URL template').fill('https://jaeger.example.com/trace/{traceId}?uiFind={spanId}');
      await page.getByRole('button', { name: 'Save link' }).click();
      await page.getByRole('status').filter({ hasText: 'now link to your trace viewer' }).waitFor();

      await page.goto(issuePage);
      const link = page.locator('.event-trace').getByRole('link', { name: 'Open trace' });
      assert.equal(
        await link.getAttribute('href'),
        `https://jaeger.example.com/trace/${sent.traceId}?uiFind=${sent.spanId}`,
      );
      assert.equal(await link.getAttribute('rel'), 'noopener noreferrer nofollow');
      await checkPage(page, 'otlp-issue-trace');

      await page.goto(`/projects/${encodeURIComponent(p.project.id)}/settings`);
      await page.getByLabel('URL template').fill('ftp://files.example.com/{traceId}');
      await page.getByRole('button', { name: 'Save link' }).click();
      await page.getByRole('alert').filter({ hasText: 'must be an http or https URL' }).waitFor();
      const stored = await gqlOk(
        url,
        `query($id: ID!) { project(id: $id) { traceUrlTemplate } }`,
        { id: p.project.id },
        p.token,
      );
      assert.equal(stored.project.traceUrlTemplate, 'https://jaeger.example.com/trace/{traceId}?uiFind={spanId}');
      assertInert('issue page and settings');
    } finally {
      await context.close();
    }
  });
});
