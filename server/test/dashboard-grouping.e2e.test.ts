import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import type { Tracker } from '../src';
import { watchedPages } from './dashboard-browser';
import { createTestEnv, gqlOk, sendError, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';

// Grouping control on the issue page in Chromium (issue 19), against a real embedded Tracker:
// unmerge a merged issue, the four kinds of snooze, discard (the list's Discarded tab, events
// dropped at ingest) and stop discarding. Screenshots at 1280 and 390 px go to web/test-artifacts/.

const PASSWORD = 'correct horse battery'; // signUpWithProject's

describe('grouping control on the dashboard in a real browser (embedded)', () => {
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

  const { newPage, assertInert, screenshot } = watchedPages(
    () => browser!,
    () => url,
  );

  /** A new page signed in as `email` (signUpWithProject's password). */
  async function signedIn(email: string) {
    const { page } = await newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /sign in|log in/i }).click();
    await page.waitForURL((u) => u.pathname !== '/login');
    return page;
  }

  test('Merge selected in the issues list merges two checked issues into one (issue 31)', async () => {
    const account = await signUpWithProject(url, 'Merging');
    const base = `/projects/${encodeURIComponent(account.project.id)}`;
    const messages = ['cart broke', 'payment broke', 'search broke'];
    for (const [i, message] of messages.entries()) {
      const r = await sendError(url, account.key, {
        type: 'Error',
        message,
        environment: 'production',
        fingerprint: [randomUUID()],
        user: { id: `u${i}` },
      });
      assert.equal(r.status, 202, JSON.stringify(r.body));
    }
    const issueCount = async () =>
      (
        await tracker!.db.ds.query('SELECT count(*)::int AS n FROM issues WHERE project_id = $1', [account.project.id])
      )[0].n as number;
    await waitFor('3 issues', async () => (await issueCount()) === 3);

    const page = await signedIn(account.email);
    await page.goto(`${base}/issues`);
    await page.getByRole('checkbox', { name: 'Select Error: cart broke' }).check();
    await page.getByRole('checkbox', { name: 'Select Error: payment broke' }).check();
    await page.getByRole('button', { name: 'Merge selected' }).click();
    await page.getByText(/Merged 1 issue into “Error: (cart|payment) broke”/).waitFor();
    await screenshot(page, 'issues-merged');

    // Stored: two issues left, one of them holding both events and the merge (Unmerge can undo it).
    const rows = (await tracker!.db.ds.query(
      `SELECT i.id, (SELECT count(*)::int FROM events e WHERE e.issue_id = i.id) AS events
         FROM issues i WHERE i.project_id = $1 ORDER BY events DESC`,
      [account.project.id],
    )) as Array<{ id: string; events: number }>;
    assert.deepEqual(
      rows.map((r) => r.events),
      [2, 1],
    );
    const merged = await gqlOk(
      url,
      `query($id: ID!) { issue(id: $id) { mergedIssueCount } }`,
      { id: rows[0].id },
      account.token,
    );
    assert.equal(merged.issue.mergedIssueCount, 1);
    // The list shows the two that are left.
    await page.getByRole('checkbox', { name: 'Select Error: search broke' }).waitFor();
    assert.equal(await page.getByRole('checkbox', { name: /^Select Error: / }).count(), 2);
    assertInert('issues list after a merge');
  });

  test('unmerge, snooze by time, events and users, discard and stop discarding', async () => {
    const account = await signUpWithProject(url, 'Grouping');
    const base = `/projects/${encodeURIComponent(account.project.id)}`;
    const [a, b] = [randomUUID(), randomUUID()];
    const send = (fingerprint: string, user: string) =>
      sendError(url, account.key, {
        type: 'TypeError',
        message: `checkout broke (${fingerprint === a ? 'cart' : 'payment'})`,
        environment: 'production',
        fingerprint: [fingerprint],
        user: { id: user },
      });
    for (const [fp, user] of [
      [a, 'ann'],
      [a, 'bob'],
      [b, 'cy'],
    ]) {
      assert.equal((await send(fp, user)).status, 202);
    }
    const issueOf = async (fp: string) =>
      waitFor(`the issue of ${fp}`, async () => {
        const rows = await tracker!.db.ds.query(
          `SELECT DISTINCT issue_id FROM events WHERE project_id = $1 AND fingerprint = $2::jsonb`,
          [account.project.id, JSON.stringify([fp])],
        );
        return rows[0]?.issue_id as string | undefined;
      });
    const target = await issueOf(a);
    const source = await issueOf(b);
    await waitFor('3 events', async () => {
      const rows = await tracker!.db.ds.query('SELECT count(*)::int AS n FROM events WHERE project_id = $1', [
        account.project.id,
      ]);
      return rows[0].n === 3;
    });
    await gqlOk(
      url,
      `mutation($t: ID!, $s: ID!) { mergeIssues(targetId: $t, sourceId: $s) { id } }`,
      { t: target, s: source },
      account.token,
    );

    const page = await signedIn(account.email);

    // Unmerge: offered on the merged issue only, behind a confirmation.
    const issuePage = `${base}/issues/${target}`;
    await page.goto(issuePage);
    const status = page.locator('.status-line');
    await status.getByText('Merged from 2 issues').waitFor();
    await screenshot(page, 'issue-merged');
    await page.locator('summary', { hasText: 'Unmerge' }).click();
    await page.getByRole('button', { name: 'Split into 2 issues' }).click();
    await page.waitForLoadState('networkidle');
    await page.locator('summary', { hasText: 'Unmerge' }).waitFor({ state: 'detached' });
    assert.equal(await status.getByText('Merged from').count(), 0);
    const restored = await gqlOk(
      url,
      `query($id: ID!) { issue(id: $id) { eventCount userCount } }`,
      { id: source },
      account.token,
    );
    assert.deepEqual(restored.issue, { eventCount: 1, userCount: 1 });
    assert.match(await page.locator('#events-heading').innerText(), /\(2\)/);

    // Snooze until 3 more events, then for 24 hours, then until 5 more users; reopen between.
    const openMenu = async () => {
      await page.locator('summary', { hasText: 'Snooze' }).click();
    };
    await openMenu();
    const byEvents = page.getByRole('form', { name: 'Snooze until more events' });
    await byEvents.getByRole('spinbutton').fill('3');
    await byEvents.getByRole('button', { name: 'Snooze' }).click();
    await status.getByText('Snoozed until 3 more events (3 to go)').waitFor();
    await screenshot(page, 'issue-snoozed-events');
    await page.getByRole('button', { name: 'Reopen' }).click();
    await page.locator('summary', { hasText: 'Snooze' }).waitFor();

    await openMenu();
    await page.getByRole('button', { name: 'For 24 hours' }).click();
    await status.locator('.status-snoozed').waitFor();
    assert.match(await status.innerText(), /Snoozed until /);
    await page.getByRole('button', { name: 'Reopen' }).click();

    await openMenu();
    const byUsers = page.getByRole('form', { name: 'Snooze until more users' });
    await byUsers.getByRole('spinbutton').fill('5');
    await byUsers.getByRole('button', { name: 'Snooze' }).click();
    await status.getByText('Snoozed until 5 more users (5 to go)').waitFor();
    await page.getByRole('button', { name: 'Reopen' }).click();
    await page.locator('summary', { hasText: 'Snooze' }).waitFor();

    // An invalid count is refused with a message, not sent.
    await openMenu();
    // The browser would refuse it first (min="1"): the server must too, for a client that does not.
    await page.evaluate(`document.querySelector('form[aria-label="Snooze until more events"]').noValidate = true`);
    await byEvents.getByRole('spinbutton').fill('0');
    await byEvents.getByRole('button', { name: 'Snooze' }).click();
    await page.getByText('Enter how many more events end the snooze').waitFor();

    // Discard: the issue leaves the open list for the Discarded tab; its new events are dropped.
    await page.goto(issuePage);
    await page.locator('summary', { hasText: 'Discard' }).click();
    await page.getByRole('button', { name: 'Drop its new events at ingest' }).click();
    await status.getByText('Discarded: new events are dropped at ingest').waitFor();
    await screenshot(page, 'issue-discarded');
    assert.equal((await send(a, 'dan')).status, 202);

    await page.goto(`${base}/issues`);
    const table = page.locator('table.issues');
    await table.getByText('checkout broke (payment)').waitFor();
    assert.equal(await table.getByText('checkout broke (cart)').count(), 0);
    await page.getByRole('link', { name: 'Discarded', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('status') === 'discarded');
    await table.getByText('checkout broke (cart)').waitFor();
    assert.equal(await table.getByText('checkout broke (payment)').count(), 0);
    await screenshot(page, 'issues-discarded-tab');

    const stored = async () =>
      (await tracker!.db.ds.query('SELECT count(*)::int AS n FROM events WHERE issue_id = $1', [target]))[0]
        .n as number;
    assert.equal(await stored(), 2);

    // Stop discarding: its events are stored again.
    await page.goto(issuePage);
    await page.getByRole('button', { name: 'Stop discarding' }).click();
    await page.locator('summary', { hasText: 'Discard' }).waitFor();
    assert.equal(await status.getByText('Discarded').count(), 0);
    assert.equal((await send(a, 'eve')).status, 202);
    await waitFor('stored again', async () => (await stored()) === 3);
    assertInert('grouping control');
  });
});
