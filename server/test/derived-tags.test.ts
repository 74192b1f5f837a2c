import { CHROMIUM_ARGS } from '@tracker/core/testing';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { chromium } from 'playwright-core';
import type { Tracker } from '../src';
import {
  createTestEnv,
  gqlOk,
  MODES,
  sendError,
  signUpWithProject,
  startTracker,
  waitFor,
  type TestEnv,
} from './helpers';

// Real User-Agent strings as these browsers send them (Chromium's own is read from
// /usr/bin/chromium in `before`).
const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  firefoxLinux: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
};

const BROWSER_SDK = { name: 'tracker.browser', version: '0.5.0' };
const NODE_SDK = { name: 'tracker.node', version: '0.5.0' };

const ISSUE_TAGS = `query($id: ID!) { issue(id: $id) { eventCount tags { key count values { value count } } } }`;
const EVENT_OF = `query($p: ID!) { issues(projectId: $p, first: 100) { nodes { id eventCount
  latestEvent { eventId tags { key value } context fingerprint } } } }`;

let chromiumUserAgent: string;
before(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  try {
    chromiumUserAgent = (await (await browser.newPage()).evaluate('navigator.userAgent')) as string;
  } finally {
    await browser.close();
  }
});

for (const mode of MODES) {
  describe(`fingerprints and derived tags, through HTTP, the worker and GraphQL (${mode})`, () => {
    let env: TestEnv;
    let tracker: Tracker;
    let url: string;
    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
      url = tracker.url;
    });
    after(async () => {
      await tracker.close();
      await env.cleanup();
    });

    const base = { type: 'Error', environment: 'production' };

    async function issuesOf(token: string, projectId: string, events: number) {
      return waitFor(`${events} events stored`, async () => {
        const { issues } = await gqlOk(url, EVENT_OF, { p: projectId }, token);
        const total = issues.nodes.reduce((n: number, i: { eventCount: number }) => n + i.eventCount, 0);
        return total === events && issues.nodes;
      });
    }

    async function send(key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
      const r = await sendError(url, key, { ...base, ...body }, headers);
      assert.equal(r.status, 202, JSON.stringify(r.body));
      return r.body.id as string;
    }

    test('a string fingerprint and the one-entry array land in the same issue', async () => {
      const a = await signUpWithProject(url);
      await send(a.key, { message: 'card declined 1', fingerprint: 'checkout-declined' });
      await send(a.key, { message: 'totally different 2', type: 'TypeError', fingerprint: ['checkout-declined'] });
      // An over-long string is cut like an array entry: both still group together.
      const long = 'f'.repeat(300);
      await send(a.key, { message: 'long a', fingerprint: long });
      await send(a.key, { message: 'long b', fingerprint: [long] });
      const issues = await issuesOf(a.token, a.project.id, 4);
      assert.deepEqual(
        issues.map((i: { eventCount: number }) => i.eventCount),
        [2, 2],
      );
      const fingerprints = issues.map((i: any) => i.latestEvent.fingerprint);
      assert.ok(fingerprints.some((f: string[]) => f.length === 1 && f[0] === 'checkout-declined'));
      const cut = fingerprints.find((f: string[]) => f[0] !== 'checkout-declined')[0];
      assert.equal(cut.length, 200);
      assert.ok(cut.endsWith('…'));
    });

    test("browser User-Agents become browser, os and device tags in the issue's tag breakdown", async () => {
      const a = await signUpWithProject(url);
      const sent = [chromiumUserAgent, UA.chromeWindows, UA.safariIphone, UA.firefoxLinux, UA.edgeWindows];
      for (const userAgent of sent) {
        await send(a.key, { message: 'checkout broke', fingerprint: 'ua', sdk: BROWSER_SDK, context: { userAgent } });
      }
      const [issue] = await issuesOf(a.token, a.project.id, sent.length);
      const { issue: detail } = await gqlOk(url, ISSUE_TAGS, { id: issue.id }, a.token);
      const breakdown = Object.fromEntries(
        detail.tags.map((t: { key: string; values: { value: string; count: number }[] }) => [
          t.key,
          Object.fromEntries(t.values.map((v) => [v.value, v.count])),
        ]),
      );
      const chromiumMajor = /(?:Headless)?Chrome\/(\d+)/.exec(chromiumUserAgent)![1];
      const chromiumName = chromiumUserAgent.includes('HeadlessChrome') ? 'Chrome Headless' : 'Chrome';
      assert.deepEqual(breakdown['browser.name'], {
        [chromiumName]: 1,
        Chrome: 1,
        'Mobile Safari': 1,
        Firefox: 1,
        Edge: 1,
      });
      assert.deepEqual(breakdown.browser, {
        [`${chromiumName} ${chromiumMajor}`]: 1,
        'Chrome 131': 1,
        'Mobile Safari 17': 1,
        'Firefox 133': 1,
        'Edge 131': 1,
      });
      assert.deepEqual(breakdown.os, { 'Windows 10': 2, 'iOS 17.1.1': 1, Ubuntu: 1, Linux: 1 });
      assert.deepEqual(breakdown['os.name'], { Windows: 2, iOS: 1, Ubuntu: 1, Linux: 1 });
      // Only the parser's known model: the iPhone; desktops have none.
      assert.deepEqual(breakdown.device, { iPhone: 1 });
    });

    test('the header is the fallback for browser SDK events only; what the SDK sent wins', async () => {
      const a = await signUpWithProject(url);
      const header = { 'user-agent': UA.firefoxLinux };
      const fromHeader = await send(a.key, { message: 'h1', fingerprint: 'a', sdk: BROWSER_SDK }, header);
      const fromSdk = await send(
        a.key,
        { message: 'h2', fingerprint: 'b', sdk: BROWSER_SDK, context: { userAgent: UA.safariIphone } },
        header,
      );
      const fromNode = await send(a.key, { message: 'h3', fingerprint: 'c', sdk: NODE_SDK }, header);
      const noSdk = await send(a.key, { message: 'h4', fingerprint: 'd' }, header);
      const issues = await issuesOf(a.token, a.project.id, 4);
      const byEvent = new Map(issues.map((i: any) => [i.latestEvent.eventId, i.latestEvent]));
      const tagsOf = (id: string) =>
        Object.fromEntries((byEvent.get(id) as any).tags.map((t: { key: string; value: string }) => [t.key, t.value]));
      assert.equal(tagsOf(fromHeader)['browser.name'], 'Firefox');
      assert.deepEqual((byEvent.get(fromHeader) as any).context, { userAgent: UA.firefoxLinux });
      assert.equal(tagsOf(fromSdk)['browser.name'], 'Mobile Safari');
      assert.deepEqual((byEvent.get(fromSdk) as any).context, { userAgent: UA.safariIphone });
      assert.deepEqual(tagsOf(fromNode), {}, 'a server SDK sends its HTTP client, not a browser');
      assert.deepEqual(tagsOf(noSdk), {});
    });

    test("the Node SDK's runtime and os become runtime, runtime.name, os and os.name tags", async () => {
      const a = await signUpWithProject(url);
      const id = await send(a.key, {
        message: 'db down',
        sdk: NODE_SDK,
        context: { runtime: { name: 'node', version: '20.20.2' }, os: { name: 'Linux', version: '6.1.0' }, job: 7 },
      });
      const [issue] = await issuesOf(a.token, a.project.id, 1);
      assert.equal(issue.latestEvent.eventId, id);
      assert.deepEqual(issue.latestEvent.tags, [
        { key: 'os', value: 'Linux 6.1.0' },
        { key: 'os.name', value: 'Linux' },
        { key: 'runtime', value: 'node 20.20.2' },
        { key: 'runtime.name', value: 'node' },
      ]);
      const { issue: detail } = await gqlOk(url, ISSUE_TAGS, { id: issue.id }, a.token);
      assert.deepEqual(
        detail.tags.map((t: { key: string }) => t.key),
        ['os', 'os.name', 'runtime', 'runtime.name'],
      );
    });

    test("the event's own tags win, and derived tags never push the total past 50", async () => {
      const a = await signUpWithProject(url);
      const own = await send(a.key, {
        message: 'own',
        fingerprint: 'own',
        sdk: BROWSER_SDK,
        tags: { browser: 'Kiosk build 7', device: 'Till 3' },
        context: { userAgent: UA.safariIphone },
      });
      const fortyNine = Object.fromEntries(Array.from({ length: 49 }, (_, i) => [`t${i}`, String(i)]));
      const full = await send(a.key, {
        message: 'full',
        fingerprint: 'full',
        eventId: randomUUID(),
        sdk: BROWSER_SDK,
        tags: fortyNine,
        context: { userAgent: UA.chromeWindows },
      });
      const issues = await issuesOf(a.token, a.project.id, 2);
      const byEvent = new Map(issues.map((i: any) => [i.latestEvent.eventId, i.latestEvent]));
      const ownTags = Object.fromEntries(
        (byEvent.get(own) as any).tags.map((t: { key: string; value: string }) => [t.key, t.value]),
      );
      assert.deepEqual(ownTags, {
        browser: 'Kiosk build 7',
        'browser.name': 'Mobile Safari',
        device: 'Till 3',
        os: 'iOS 17.1.1',
        'os.name': 'iOS',
      });
      const fullTags = (byEvent.get(full) as any).tags as { key: string; value: string }[];
      assert.equal(fullTags.length, 50);
      assert.equal(fullTags.filter((t) => /^t\d+$/.test(t.key)).length, 49, 'every tag the event sent is kept');
      assert.deepEqual(
        fullTags.filter((t) => !/^t\d+$/.test(t.key)),
        [{ key: 'browser', value: 'Chrome 131' }],
      );
    });
  });
}
