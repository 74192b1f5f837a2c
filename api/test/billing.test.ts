import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expireBillingGrace, loadConfig, openDatabase, type Config, type Database } from '@tracker/core';
import { createTempDir, createTestPostgres, type TempDir, type TestPostgres } from '@tracker/core/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { apiPlugin } from '../src/api.plugin';
import {
  completedCheckoutSession,
  eventOf,
  failedInvoice,
  newId,
  STAND_IN_KEY,
  startStripeStandIn,
  type StripeStandIn,
} from './billing-stripe-stand-in';

const WEBHOOK_SECRET = 'whsec_test_tracker_0123456789abcdef';
const PRICE_PRO = 'price_pro_monthly';
const PRICE_BUSINESS = 'price_business_monthly';
// Only the SDK's signing helper is used from this client; it never makes a request.
const signer = new Stripe(STAND_IN_KEY).webhooks;

interface Harness {
  app: FastifyInstance;
  url: string;
  stop(): Promise<void>;
}

async function startApi(db: Database, config: Config): Promise<Harness> {
  const app = Fastify({ logger: false });
  const api = await apiPlugin(app, { ds: db.ds, config });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      await api.stop();
      await app.close();
    },
  };
}

function gqlClient(h: () => Harness) {
  return async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const res = await fetch(`${h().url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as any;
  };
}

const SIGNUP = `mutation($e: String!, $p: String!, $o: String!) { signup(email: $e, password: $p, organizationName: $o) { token user { id } organization { id plan } } }`;
const BILLING = `query($o: ID!) { billing(organizationId: $o) { configured plan availablePlans status currentPeriodEnd cancelAtPeriodEnd pastDueSince graceEndsAt hasBillingAccount } }`;
const CHECKOUT = `mutation($o: ID!, $p: String!) { createCheckoutSession(organizationId: $o, plan: $p) { url } }`;
const PORTAL = `mutation($o: ID!) { createBillingPortalSession(organizationId: $o) { url } }`;

describe('Stripe billing', () => {
  let pg: TestPostgres;
  let db: Database;
  let stripe: StripeStandIn;
  let config: Config;
  let h: Harness;
  const gql = gqlClient(() => h);
  let seq = 0;

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true, poolSize: 10 });
    stripe = await startStripeStandIn();
    config = loadConfig({
      TRACKER_PUBLIC_URL: 'https://tracker.example.com',
      STRIPE_SECRET_KEY: STAND_IN_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICE_PRO: PRICE_PRO,
      STRIPE_PRICE_BUSINESS: PRICE_BUSINESS,
      STRIPE_API_BASE: stripe.url,
    });
    h = await startApi(db, config);
  });
  after(async () => {
    await h.stop();
    await stripe.close();
    await db.close();
    await pg.drop();
  });

  async function signupOrg(): Promise<{ org: string; token: string; userId: string }> {
    seq += 1;
    const r = await gql(SIGNUP, { e: `owner${seq}@example.com`, p: 'long enough pw', o: `Billing Org ${seq}` });
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    return { org: r.data.signup.organization.id, token: r.data.signup.token, userId: r.data.signup.user.id };
  }

  /** POSTs a webhook. By default signed now with the right secret over the exact bytes sent. */
  async function deliver(
    event: Record<string, unknown>,
    opts: { secret?: string; timestamp?: number; signed?: string; sent?: string; header?: string | null } = {},
  ): Promise<{ status: number; body: any }> {
    const sent = opts.sent ?? JSON.stringify(event);
    const header =
      opts.header !== undefined
        ? opts.header
        : signer.generateTestHeaderString({
            payload: opts.signed ?? sent,
            secret: opts.secret ?? WEBHOOK_SECRET,
            timestamp: opts.timestamp,
          });
    const res = await fetch(`${h.url}/billing/stripe/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json; charset=utf-8',
        ...(header !== null ? { 'stripe-signature': header } : {}),
      },
      body: sent,
    });
    return { status: res.status, body: await res.json() };
  }

  async function planOf(org: string): Promise<string> {
    const rows = await db.ds.query('SELECT plan FROM organizations WHERE id = $1', [org]);
    return rows[0].plan;
  }

  async function count(sql: string, params: unknown[]): Promise<number> {
    const rows = await db.ds.query(sql, params);
    return Number(rows[0].n);
  }

  /** Checkout as a user would, then Stripe's side: a subscription and checkout.session.completed. */
  async function subscribe(org: string, token: string, price = PRICE_PRO) {
    const r = await gql(CHECKOUT, { o: org, p: price === PRICE_PRO ? 'pro' : 'business' }, token);
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const [account] = await db.ds.query('SELECT stripe_customer_id FROM billing_accounts WHERE organization_id = $1', [
      org,
    ]);
    const customer: string = account.stripe_customer_id;
    const sub = newId('sub');
    stripe.setSubscription(sub, { customer, status: 'active', price, metadata: { organizationId: org } });
    const done = await deliver(eventOf('checkout.session.completed', completedCheckoutSession(org, customer, sub)));
    assert.deepEqual(done, { status: 200, body: { received: true, handled: true, applied: true } });
    return { customer, sub };
  }

  test('Checkout, then signed webhooks move an organization between plans', async () => {
    const { org, token } = await signupOrg();
    const before = await gql(BILLING, { o: org }, token);
    assert.deepEqual(before.data.billing, {
      configured: true,
      plan: 'free',
      availablePlans: ['pro', 'business'],
      status: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      pastDueSince: null,
      graceEndsAt: null,
      hasBillingAccount: false,
    });

    const checkout = await gql(CHECKOUT, { o: org, p: 'pro' }, token);
    assert.match(checkout.data.createCheckoutSession.url, /^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    // What reached "Stripe": a customer for the organization (idempotent), then the session.
    const customerReq = stripe.requests.filter((r) => r.path === '/v1/customers').at(-1)!;
    assert.equal(customerReq.form['metadata[organizationId]'], org);
    assert.equal(customerReq.idempotencyKey, `tracker-customer-${org}`);
    const sessionReq = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    assert.equal(sessionReq.form.mode, 'subscription');
    assert.equal(sessionReq.form['line_items[0][price]'], PRICE_PRO);
    assert.equal(sessionReq.form.client_reference_id, org);
    assert.equal(sessionReq.form['subscription_data[metadata][organizationId]'], org);
    assert.equal(
      sessionReq.form.success_url,
      `https://tracker.example.com/billing?organizationId=${org}&checkout=success`,
    );
    const [account] = await db.ds.query('SELECT stripe_customer_id FROM billing_accounts WHERE organization_id = $1', [
      org,
    ]);
    assert.equal(sessionReq.form.customer, account.stripe_customer_id);
    assert.equal(await planOf(org), 'free', 'nothing changes before Stripe says the Checkout completed');

    // Stripe: the customer paid; the subscription exists; the events arrive.
    const customer: string = account.stripe_customer_id;
    const sub = newId('sub');
    const subObject = stripe.setSubscription(sub, {
      customer,
      status: 'active',
      price: PRICE_PRO,
      metadata: { organizationId: org },
    });
    const created = await deliver(eventOf('customer.subscription.created', subObject));
    assert.equal(created.status, 200);
    assert.equal(await planOf(org), 'pro');
    const completed = await deliver(
      eventOf('checkout.session.completed', completedCheckoutSession(org, customer, sub)),
    );
    assert.deepEqual(completed.body, { received: true, handled: true, applied: true });
    assert.equal(await planOf(org), 'pro');
    const pro = (await gql(BILLING, { o: org }, token)).data.billing;
    assert.equal(pro.status, 'active');
    assert.equal(pro.hasBillingAccount, true);
    assert.match(pro.currentPeriodEnd, /^\d{4}-\d\d-\d\dT/);

    // Upgrade in the portal: subscription.updated with the Business price.
    const upgraded = stripe.setSubscription(sub, {
      customer,
      status: 'active',
      price: PRICE_BUSINESS,
      metadata: { organizationId: org },
    });
    assert.equal((await deliver(eventOf('customer.subscription.updated', upgraded))).status, 200);
    assert.equal(await planOf(org), 'business');

    // Cancel at period end: still Business, flagged.
    const ending = stripe.setSubscription(sub, {
      customer,
      status: 'active',
      price: PRICE_BUSINESS,
      metadata: { organizationId: org },
      cancelAtPeriodEnd: true,
    });
    await deliver(eventOf('customer.subscription.updated', ending));
    const flagged = (await gql(BILLING, { o: org }, token)).data.billing;
    assert.equal(flagged.plan, 'business');
    assert.equal(flagged.cancelAtPeriodEnd, true);

    // The period ends: subscription.deleted → free.
    const canceled = stripe.setSubscription(sub, {
      customer,
      status: 'canceled',
      price: PRICE_BUSINESS,
      metadata: { organizationId: org },
    });
    assert.equal((await deliver(eventOf('customer.subscription.deleted', canceled))).status, 200);
    assert.equal(await planOf(org), 'free');
    assert.equal((await gql(BILLING, { o: org }, token)).data.billing.status, 'canceled');

    const log = await db.ds.query(
      'SELECT reason, plan_before, plan_after FROM billing_log WHERE organization_id = $1 ORDER BY created_at',
      [org],
    );
    assert.deepEqual(
      log.map((l: any) => `${l.reason}:${l.plan_before}->${l.plan_after}`),
      [
        'customer.subscription.created:free->pro',
        'checkout.session.completed:pro->pro',
        'customer.subscription.updated:pro->business',
        'customer.subscription.updated:business->business',
        'customer.subscription.deleted:business->free',
      ],
    );
    // The audit log (issue 32): one row per actual plan change, by Stripe, in the webhook's transaction.
    const audit = await db.ds.query(
      `SELECT actor_type, actor_label, changes FROM audit_log
        WHERE organization_id = $1 AND action = 'organization.plan_changed' ORDER BY id`,
      [org],
    );
    assert.deepEqual(
      audit.map((r: any) => `${r.actor_type}:${r.actor_label}:${r.changes.before.plan}->${r.changes.after.plan}`),
      ['system:stripe:free->pro', 'system:stripe:pro->business', 'system:stripe:business->free'],
    );

    // After cancellation a new Checkout is allowed again.
    const again = await gql(CHECKOUT, { o: org, p: 'business' }, token);
    assert.equal(again.errors, undefined);
  });

  test('payment failed: the plan is kept during the grace period, then free; paying again restores it', async () => {
    const { org, token } = await signupOrg();
    const { customer, sub } = await subscribe(org, token, PRICE_BUSINESS);
    assert.equal(await planOf(org), 'business');

    stripe.setSubscription(sub, {
      customer,
      status: 'past_due',
      price: PRICE_BUSINESS,
      metadata: { organizationId: org },
    });
    assert.equal((await deliver(eventOf('invoice.payment_failed', failedInvoice(customer, sub, org)))).status, 200);
    assert.equal(await planOf(org), 'business', 'grace: still Business');
    const pastDue = (await gql(BILLING, { o: org }, token)).data.billing;
    assert.equal(pastDue.status, 'past_due');
    const since = Date.parse(pastDue.pastDueSince);
    assert.ok(Math.abs(since - Date.now()) < 60_000);
    assert.equal(Date.parse(pastDue.graceEndsAt) - since, 7 * 86_400_000);

    // A second failure later does not restart the grace period.
    await deliver(eventOf('invoice.payment_failed', failedInvoice(customer, sub, org)));
    assert.equal((await gql(BILLING, { o: org }, token)).data.billing.pastDueSince, pastDue.pastDueSince);

    // The sweeper: nothing before the grace period ends, free after it.
    assert.deepEqual(await expireBillingGrace(db.ds, config.billing, new Date(since + 6 * 86_400_000)), []);
    assert.equal(await planOf(org), 'business');
    assert.deepEqual(await expireBillingGrace(db.ds, config.billing, new Date(since + 7 * 86_400_000 + 1000)), [org]);
    assert.equal(await planOf(org), 'free');
    const [swept] = await db.ds.query(
      `SELECT plan_before, plan_after FROM billing_log WHERE organization_id = $1 AND reason = 'grace_expired'`,
      [org],
    );
    assert.deepEqual(swept, { plan_before: 'business', plan_after: 'free' });

    // The card is updated and the invoice paid: Stripe marks the subscription active again.
    const active = stripe.setSubscription(sub, {
      customer,
      status: 'active',
      price: PRICE_BUSINESS,
      metadata: { organizationId: org },
    });
    await deliver(eventOf('customer.subscription.updated', active));
    assert.equal(await planOf(org), 'business');
    assert.equal((await gql(BILLING, { o: org }, token)).data.billing.pastDueSince, null);

    // A webhook arriving after the grace period (no sweep in between) also ends at free.
    stripe.setSubscription(sub, {
      customer,
      status: 'past_due',
      price: PRICE_BUSINESS,
      metadata: { organizationId: org },
    });
    await deliver(eventOf('invoice.payment_failed', failedInvoice(customer, sub, org)));
    assert.equal(await planOf(org), 'business');
    await db.ds.query(
      `UPDATE billing_accounts SET past_due_since = now() - interval '8 days' WHERE organization_id = $1`,
      [org],
    );
    await deliver(eventOf('customer.subscription.updated', stripe.subscriptions.get(sub)!));
    assert.equal(await planOf(org), 'free');

    // Stripe gives up (unpaid): free, and it stays free.
    stripe.setSubscription(sub, {
      customer,
      status: 'unpaid',
      price: PRICE_BUSINESS,
      metadata: { organizationId: org },
    });
    await deliver(eventOf('customer.subscription.updated', stripe.subscriptions.get(sub)!));
    assert.equal(await planOf(org), 'free');
  });

  test('a bad signature, a stale timestamp and a re-serialised body are refused with no change', async () => {
    const { org, token } = await signupOrg();
    await gql(CHECKOUT, { o: org, p: 'pro' }, token);
    const [{ stripe_customer_id: customer }] = await db.ds.query(
      'SELECT stripe_customer_id FROM billing_accounts WHERE organization_id = $1',
      [org],
    );
    const sub = newId('sub');
    const subObject = stripe.setSubscription(sub, {
      customer,
      status: 'active',
      price: PRICE_PRO,
      metadata: { organizationId: org },
    });
    const event = eventOf('customer.subscription.created', subObject);
    const compact = JSON.stringify(event);
    const pretty = JSON.stringify(event, null, 2);
    const eventsBefore = await count('SELECT count(*) AS n FROM stripe_events', []);

    const refused = [
      ['wrong secret', await deliver(event, { secret: 'whsec_somebody_else' })],
      ['stale timestamp (10 min)', await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 600 })],
      // Signed as Stripe sent it (pretty), received re-serialised (compact) by a JSON parser.
      ['re-serialised body', await deliver(event, { signed: pretty, sent: compact })],
      [
        'body changed after signing',
        await deliver(event, { signed: compact, sent: compact.replace(PRICE_PRO, PRICE_BUSINESS) }),
      ],
      ['no signature header', await deliver(event, { header: null })],
      ['garbage signature header', await deliver(event, { header: 't=abc,v1=def' })],
    ] as const;
    for (const [what, r] of refused) {
      assert.equal(r.status, 400, what);
      assert.equal(r.body.error.code, 'BAD_USER_INPUT', what);
      assert.equal(typeof r.body.error.message, 'string', what);
    }
    assert.match(refused[1][1].body.error.message, /tolerance/i);
    assert.equal(await planOf(org), 'free');
    assert.equal(await count('SELECT count(*) AS n FROM stripe_events', []), eventsBefore);
    assert.equal(stripe.reads(sub), 0, 'a refused event never reaches Stripe');

    // The same bytes, signed as sent, within the tolerance: accepted (pretty-printed too).
    const ok = await deliver(event, { signed: pretty, sent: pretty, timestamp: Math.floor(Date.now() / 1000) - 60 });
    assert.deepEqual(ok, { status: 200, body: { received: true, handled: true, applied: true } });
    assert.equal(await planOf(org), 'pro');
  });

  test('the same event delivered 20 times concurrently has one effect', async () => {
    const { org, token } = await signupOrg();
    const { customer, sub } = await subscribe(org, token, PRICE_PRO);
    const upgraded = stripe.setSubscription(sub, {
      customer,
      status: 'active',
      price: PRICE_BUSINESS,
      metadata: { organizationId: org },
    });
    const event = eventOf('customer.subscription.updated', upgraded);
    const readsBefore = stripe.reads(sub);

    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(event)));
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(20).fill(200),
    );
    // One effect: one billing_log row written, one re-read of the subscription from Stripe.
    assert.equal(await count('SELECT count(*) AS n FROM billing_log WHERE stripe_event_id = $1', [event.id]), 1);
    assert.equal(stripe.reads(sub) - readsBefore, 1);
    assert.equal(await count('SELECT count(*) AS n FROM stripe_events WHERE id = $1', [event.id]), 1);
    assert.equal(answers.filter((a) => a.body.applied === true).length, 1, 'exactly one delivery applied it');
    assert.equal(answers.filter((a) => a.body.applied === false).length, 19);
    assert.equal(await planOf(org), 'business');

    // And later redeliveries (Stripe retries for days) change nothing either.
    stripe.setSubscription(sub, {
      customer,
      status: 'canceled',
      price: PRICE_BUSINESS,
      metadata: { organizationId: org },
    });
    const late = await deliver(event);
    assert.deepEqual(late.body, { received: true, handled: true, applied: false });
    assert.equal(await planOf(org), 'business');

    // Control: distinct events each apply once (so the counts above measure idempotency).
    const distinct = await Promise.all(
      Array.from({ length: 3 }, () =>
        deliver(eventOf('customer.subscription.updated', stripe.subscriptions.get(sub)!)),
      ),
    );
    assert.equal(distinct.filter((a) => a.body.applied === true).length, 3);
    assert.equal(await planOf(org), 'free');
  });

  test("out-of-order updates end in Stripe's current state", async () => {
    const { org, token } = await signupOrg();
    const { customer, sub } = await subscribe(org, token, PRICE_PRO);
    const meta = { organizationId: org };
    const t = Math.floor(Date.now() / 1000);
    // Three changes happened in Stripe in this order; their snapshots are what the events carry.
    const toBusiness = stripe.setSubscription(sub, {
      customer,
      status: 'active',
      price: PRICE_BUSINESS,
      metadata: meta,
    });
    const e1 = eventOf('customer.subscription.updated', toBusiness, { created: t - 30 });
    const backToPro = stripe.setSubscription(sub, { customer, status: 'active', price: PRICE_PRO, metadata: meta });
    const e2 = eventOf('customer.subscription.updated', backToPro, { created: t - 20 });
    const toBusinessAgain = stripe.setSubscription(sub, {
      customer,
      status: 'active',
      price: PRICE_BUSINESS,
      metadata: meta,
    });
    const e3 = eventOf('customer.subscription.updated', toBusinessAgain, { created: t - 10 });

    // Delivered out of order, the oldest-but-one last: a handler trusting bodies would end on Pro (e2).
    for (const e of [e3, e1, e2]) assert.equal((await deliver(e)).status, 200);
    assert.equal(await planOf(org), 'business', "Stripe's current price is Business, whatever arrived last");

    // Cancelled in Stripe; the deleted event arrives before a stale "updated: active".
    const deleted = stripe.setSubscription(sub, {
      customer,
      status: 'canceled',
      price: PRICE_BUSINESS,
      metadata: meta,
    });
    const staleActive = eventOf('customer.subscription.updated', toBusinessAgain, { created: t - 5 });
    await deliver(eventOf('customer.subscription.deleted', deleted));
    await deliver(staleActive);
    assert.equal(await planOf(org), 'free');

    // Concurrent, shuffled deliveries of a burst end in the current state too.
    const burst = [];
    for (const price of [PRICE_PRO, PRICE_BUSINESS, PRICE_PRO, PRICE_BUSINESS, PRICE_PRO]) {
      burst.push(
        eventOf(
          'customer.subscription.updated',
          stripe.setSubscription(sub, { customer, status: 'active', price, metadata: meta }),
        ),
      );
    }
    const shuffled = [burst[4], burst[1], burst[3], burst[0], burst[2]];
    await Promise.all(shuffled.map((e) => deliver(e)));
    assert.equal(await planOf(org), 'pro');
    const [state] = await db.ds.query(
      'SELECT stripe_price_id, subscription_status FROM billing_accounts WHERE organization_id = $1',
      [org],
    );
    assert.deepEqual(state, { stripe_price_id: PRICE_PRO, subscription_status: 'active' });
  });

  test('an old subscription deleted after a new one started does not downgrade the organization', async () => {
    const { org, token } = await signupOrg();
    const { customer, sub: oldSub } = await subscribe(org, token, PRICE_PRO);
    const meta = { organizationId: org };
    // The old one is cancelled in Stripe and a new Business one starts; the new one's event comes first.
    const oldCanceled = stripe.setSubscription(oldSub, {
      customer,
      status: 'canceled',
      price: PRICE_PRO,
      metadata: meta,
    });
    const newSub = newId('sub');
    const fresh = stripe.setSubscription(newSub, { customer, status: 'active', price: PRICE_BUSINESS, metadata: meta });
    await deliver(eventOf('customer.subscription.created', fresh));
    assert.equal(await planOf(org), 'business');
    await deliver(eventOf('customer.subscription.deleted', oldCanceled));
    assert.equal(await planOf(org), 'business');
    const [state] = await db.ds.query(
      'SELECT stripe_subscription_id FROM billing_accounts WHERE organization_id = $1',
      [org],
    );
    assert.equal(state.stripe_subscription_id, newSub);
  });

  test('only owners open Checkout or the portal; members see billing; outsiders get NOT_FOUND', async () => {
    const owner = await signupOrg();
    const member = await signupOrg();
    await db.ds.query(`INSERT INTO memberships (organization_id, user_id, role) VALUES ($1, $2, 'member')`, [
      owner.org,
      member.userId,
    ]);
    const outsider = await signupOrg();

    assert.equal((await gql(BILLING, { o: owner.org }, member.token)).data.billing.plan, 'free');
    assert.equal(
      (await gql(CHECKOUT, { o: owner.org, p: 'pro' }, member.token)).errors[0].extensions.code,
      'FORBIDDEN',
    );
    assert.equal((await gql(PORTAL, { o: owner.org }, member.token)).errors[0].extensions.code, 'FORBIDDEN');
    assert.equal((await gql(BILLING, { o: owner.org }, outsider.token)).errors[0].extensions.code, 'NOT_FOUND');
    assert.equal(
      (await gql(CHECKOUT, { o: owner.org, p: 'pro' }, outsider.token)).errors[0].extensions.code,
      'NOT_FOUND',
    );
    assert.equal((await gql(BILLING, { o: 'not-a-uuid' }, owner.token)).errors[0].extensions.code, 'NOT_FOUND');
    assert.equal((await gql(BILLING, { o: owner.org })).errors[0].extensions.code, 'UNAUTHENTICATED');
    assert.equal(
      (await gql(CHECKOUT, { o: owner.org, p: 'free' }, owner.token)).errors[0].extensions.code,
      'BAD_USER_INPUT',
    );
    assert.equal(
      (await gql(CHECKOUT, { o: owner.org, p: 'enterprise' }, owner.token)).errors[0].extensions.code,
      'BAD_USER_INPUT',
    );
  });

  test('portal for the customer; a second Checkout while subscribed is refused', async () => {
    const { org, token } = await signupOrg();
    const noAccount = await gql(PORTAL, { o: org }, token);
    assert.equal(noAccount.errors[0].extensions.code, 'CONFLICT');
    const { customer } = await subscribe(org, token, PRICE_PRO);
    const portal = await gql(PORTAL, { o: org }, token);
    assert.match(portal.data.createBillingPortalSession.url, /^https:\/\/billing\.stripe\.com\/p\/session\//);
    const req = stripe.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1)!;
    assert.equal(req.form.customer, customer);
    assert.equal(req.form.return_url, `https://tracker.example.com/billing?organizationId=${org}`);
    const second = await gql(CHECKOUT, { o: org, p: 'business' }, token);
    assert.equal(second.errors[0].extensions.code, 'CONFLICT');
    // One customer per organization, however many Checkouts.
    assert.equal(await count('SELECT count(*) AS n FROM billing_accounts WHERE organization_id = $1', [org]), 1);
  });

  test('events it does not handle, or for unknown customers, are acknowledged without effect', async () => {
    const other = await deliver(eventOf('charge.succeeded', { id: 'ch_1', object: 'charge' }));
    assert.deepEqual(other, { status: 200, body: { received: true, handled: false } });
    const sub = newId('sub');
    const stranger = stripe.setSubscription(sub, { customer: 'cus_unknown', status: 'active', price: PRICE_BUSINESS });
    const r = await deliver(eventOf('customer.subscription.created', stranger));
    assert.deepEqual(r, { status: 200, body: { received: true, handled: true, applied: true } });
    assert.equal(await count(`SELECT count(*) AS n FROM billing_accounts WHERE stripe_subscription_id = $1`, [sub]), 0);
  });

  test('Stripe unreachable: 500, nothing recorded, and the retry applies', async () => {
    const { org, token } = await signupOrg();
    const { customer, sub } = await subscribe(org, token, PRICE_PRO);
    const upgraded = stripe.setSubscription(sub, {
      customer,
      status: 'active',
      price: PRICE_BUSINESS,
      metadata: { organizationId: org },
    });
    const event = eventOf('customer.subscription.updated', upgraded);
    stripe.failingReads.add(sub);
    const failed = await deliver(event);
    stripe.failingReads.delete(sub);
    assert.equal(failed.status, 500);
    assert.equal(failed.body.error.code, 'INTERNAL');
    assert.equal(
      await count('SELECT count(*) AS n FROM stripe_events WHERE id = $1', [event.id]),
      0,
      'rolled back with the effect',
    );
    assert.equal(await planOf(org), 'pro');

    // Stripe delivers the event again later: now it applies.
    const retried = await deliver(event);
    assert.equal(retried.body.applied, true);
    assert.equal(await planOf(org), 'business');
  });
});

describe('billing without Stripe configuration', () => {
  let pg: TestPostgres;
  let db: Database;
  let h: Harness;
  const gql = gqlClient(() => h);

  before(async () => {
    pg = await createTestPostgres();
    db = await openDatabase({ databaseUrl: pg.url, dataDir: '' }, { migrate: true });
    // A webhook secret alone (no key, no price) is not a configuration.
    h = await startApi(
      db,
      loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com', STRIPE_WEBHOOK_SECRET: 'whsec_x' }),
    );
  });
  after(async () => {
    await h.stop();
    await db.close();
    await pg.drop();
  });

  test('billing says so, the mutations answer BILLING_NOT_CONFIGURED, the webhook 503, and the rest works', async () => {
    const s = await gql(SIGNUP, { e: 'nostripe@example.com', p: 'long enough pw', o: 'No Stripe' });
    const org = s.data.signup.organization.id;
    const token = s.data.signup.token;
    const b = await gql(BILLING, { o: org }, token);
    assert.equal(b.errors, undefined);
    assert.deepEqual(b.data.billing, {
      configured: false,
      plan: 'free',
      availablePlans: [],
      status: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      pastDueSince: null,
      graceEndsAt: null,
      hasBillingAccount: false,
    });
    for (const r of [await gql(CHECKOUT, { o: org, p: 'pro' }, token), await gql(PORTAL, { o: org }, token)]) {
      assert.equal(r.errors[0].extensions.code, 'BILLING_NOT_CONFIGURED');
      assert.match(r.errors[0].message, /not configured/);
    }
    const payload = JSON.stringify(eventOf('customer.subscription.updated', { id: 'sub_x', object: 'subscription' }));
    const res = await fetch(`${h.url}/billing/stripe/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signer.generateTestHeaderString({ payload, secret: 'whsec_x' }),
      },
      body: payload,
    });
    assert.equal(res.status, 503);
    assert.equal(((await res.json()) as any).error.code, 'BILLING_NOT_CONFIGURED');
    const p = await gql(
      `mutation($o: ID!) { createProject(organizationId: $o, name: "Web") { id } }`,
      { o: org },
      token,
    );
    assert.equal(p.errors, undefined);
  });
});

describe('billing on embedded PGlite (one connection)', () => {
  let dir: TempDir;
  let db: Database;
  let stripe: StripeStandIn;
  let h: Harness;
  const gql = gqlClient(() => h);

  before(async () => {
    dir = createTempDir('tracker-billing-');
    db = await openDatabase({ databaseUrl: undefined, dataDir: dir.path }, { migrate: true });
    stripe = await startStripeStandIn();
    h = await startApi(
      db,
      loadConfig({
        TRACKER_PUBLIC_URL: 'https://tracker.example.com',
        STRIPE_SECRET_KEY: STAND_IN_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_PRICE_PRO: PRICE_PRO,
        STRIPE_API_BASE: stripe.url,
      }),
    );
  });
  after(async () => {
    await h.stop();
    await stripe.close();
    await db.close();
    dir.remove();
  });

  test('Checkout and concurrent redeliveries work the same', async () => {
    const s = await gql(SIGNUP, { e: 'pglite@example.com', p: 'long enough pw', o: 'Embedded' });
    const org = s.data.signup.organization.id;
    const checkout = await gql(CHECKOUT, { o: org, p: 'pro' }, s.data.signup.token);
    assert.equal(checkout.errors, undefined);
    const [{ stripe_customer_id: customer }] = await db.ds.query(
      'SELECT stripe_customer_id FROM billing_accounts WHERE organization_id = $1',
      [org],
    );
    const sub = newId('sub');
    stripe.setSubscription(sub, { customer, status: 'active', price: PRICE_PRO, metadata: { organizationId: org } });
    const event = eventOf('checkout.session.completed', completedCheckoutSession(org, customer, sub));
    const payload = JSON.stringify(event);
    const answers = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const res = await fetch(`${h.url}/billing/stripe/webhook`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'stripe-signature': signer.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
          },
          body: payload,
        });
        return ((await res.json()) as any).applied;
      }),
    );
    assert.deepEqual(answers.sort(), [false, false, false, false, true]);
    assert.equal(stripe.reads(sub), 1);
    const [{ plan }] = await db.ds.query('SELECT plan FROM organizations WHERE id = $1', [org]);
    assert.equal(plan, 'pro');
    const b = await gql(BILLING, { o: org }, s.data.signup.token);
    assert.deepEqual([b.data.billing.plan, b.data.billing.availablePlans], ['pro', ['pro']]);
  });
});
