/**
 * User feedback from Sentry's SDKs keeps who wrote it and where (issue 30, part 6): real,
 * unmodified @sentry/node 11 `captureFeedback({message, name, email, url, associatedEventId})`
 * (the `feedback` item the widget also sends: `contexts.feedback`) is stored with the name and
 * the page URL (its credentials scrubbed), shown through GraphQL on the feedback list and on the
 * issue of the event it names; the older `user_report` item keeps its `name` too. Both runtimes.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Tracker } from '../src';
import { runSender } from './run-sender';
import { createTestEnv, gqlOk, MODES, signUpWithProject, startTracker, waitFor, type TestEnv } from './helpers';
import { buildEnvelope, errorEvent, item } from './sentry-envelope';

function runFeedbackSender(
  dsn: string,
): Promise<{ exception: string; feedback: string; flushed: boolean; version: string }> {
  return runSender(process.execPath, [join(__dirname, 'sentry-node-feedback-sender.cjs')], { SENTRY_DSN: dsn });
}

const sameId = (a: string | null | undefined, b: string) => a?.replace(/-/g, '') === b.replace(/-/g, '');

const FEEDBACK = `query($p: ID!) { feedback(projectId: $p, first: 50) { nodes {
  id message name email url eventId issue { id feedback { id name url } } event { eventId } } } }`;

for (const mode of MODES) {
  describe(`feedback from Sentry's SDKs keeps the name and the page (${mode})`, () => {
    let env: TestEnv | undefined;
    let tracker: Tracker | undefined;

    before(async () => {
      env = await createTestEnv(mode);
      tracker = await startTracker(env);
    });
    after(async () => {
      await tracker?.close().catch(() => undefined);
      await env?.cleanup().catch(() => undefined);
    });

    test(
      '@sentry/node 11 captureFeedback: name, email, page URL, linked to the event it names',
      { timeout: 120_000 },
      async () => {
        const acct = await signUpWithProject(tracker!.url, 'Shop');
        const sent = await runFeedbackSender(acct.dsn);
        assert.equal(sent.version, '11.12.0');
        assert.equal(sent.flushed, true);
        const feedback = await waitFor(
          'the feedback, linked',
          async () => {
            const { feedback } = await gqlOk(tracker!.url, FEEDBACK, { p: acct.project.id }, acct.token);
            const node = feedback.nodes.find((n: any) => sameId(n.id, sent.feedback));
            return node?.issue ? node : undefined;
          },
          30_000,
        );
        assert.equal(feedback.message, 'The coupon field cleared my cart');
        assert.equal(feedback.name, 'Ada Lovelace');
        assert.equal(feedback.email, 'ada@example.com');
        // The page as the SDK sent it, with the value of a credential-like parameter scrubbed.
        assert.match(feedback.url, /^https:\/\/shop\.example\/checkout\?step=2&token=/);
        assert.ok(!feedback.url.includes('abc123'), feedback.url);
        assert.ok(sameId(feedback.eventId, sent.exception));
        assert.ok(sameId(feedback.event?.eventId, sent.exception));
        // Shown on the issue of the event it names, with the name and the page.
        assert.deepEqual(
          feedback.issue.feedback.find((f: any) => f.id === feedback.id),
          { id: feedback.id, name: 'Ada Lovelace', url: feedback.url },
        );
      },
    );

    test(
      'the older user_report item keeps its name; the widget item its page, and links once its event arrives',
      { timeout: 60_000 },
      async () => {
        const acct = await signUpWithProject(tracker!.url, 'Widget');
        const number = new URL(acct.dsn).pathname.split('/').pop();
        const send = async (items: ReturnType<typeof item>[]) => {
          const res = await fetch(`${tracker!.url}/api/${number}/envelope/?sentry_key=${acct.key}&sentry_version=7`, {
            method: 'POST',
            body: buildEnvelope({}, items),
          });
          assert.equal(res.status, 200, await res.text());
        };
        const eventId = randomUUID().replace(/-/g, '');
        const widgetId = randomUUID().replace(/-/g, '');
        // The widget's feedback first (as the browser SDK sends it: contexts.feedback), its event after.
        await send([
          item('feedback', {
            event_id: widgetId,
            timestamp: Date.now() / 1000,
            contexts: {
              feedback: {
                message: 'Checkout spinner never stops',
                name: 'Bo',
                contact_email: 'bo@example.com',
                url: 'https://shop.example/checkout',
                source: 'widget',
                associated_event_id: eventId,
              },
            },
          }),
          item('user_report', { event_id: eventId, name: 'Cy', email: 'cy@example.com', comments: 'Same here' }),
        ]);
        await send([item('event', errorEvent(eventId))]);
        const nodes = await waitFor(
          'both, linked',
          async () => {
            const { feedback } = await gqlOk(tracker!.url, FEEDBACK, { p: acct.project.id }, acct.token);
            return feedback.nodes.length === 2 && feedback.nodes.every((n: any) => n.issue)
              ? feedback.nodes
              : undefined;
          },
          30_000,
        );
        const byMessage = Object.fromEntries(nodes.map((n: any) => [n.message, n]));
        assert.equal(byMessage['Checkout spinner never stops'].name, 'Bo');
        assert.equal(byMessage['Checkout spinner never stops'].url, 'https://shop.example/checkout');
        assert.ok(sameId(byMessage['Checkout spinner never stops'].id, widgetId));
        assert.equal(byMessage['Same here'].name, 'Cy');
        assert.equal(byMessage['Same here'].url, null);
        assert.equal(byMessage['Same here'].issue.id, byMessage['Checkout spinner never stops'].issue.id);
      },
    );
  });
}
