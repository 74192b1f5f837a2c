import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  chooseSubscription,
  ConfigError,
  loadConfig,
  planForSubscription,
  type SubscriptionSnapshot,
} from '@tracker/core';
import type Stripe from 'stripe';
import { refsOf, toSnapshot } from '../src/billing/stripe';
import { completedCheckoutSession, eventOf, failedInvoice, subscriptionObject } from './billing-stripe-stand-in';

const billing = { prices: { pro: 'price_pro', business: 'price_biz' }, graceDays: 7 };
const now = new Date('2026-11-10T12:00:00Z');
const DAY = 86_400_000;

describe('plan from a subscription (pure)', () => {
  const plan = (status: string, priceIds: string[], pastDueSince: Date | null = null) =>
    planForSubscription({ status, priceIds, pastDueSince }, billing, now).plan;

  test('active and trialing give the plan of the price; unknown prices give nothing', () => {
    assert.equal(plan('active', ['price_pro']), 'pro');
    assert.equal(plan('trialing', ['price_biz']), 'business');
    assert.equal(plan('active', ['price_other']), 'free');
    assert.equal(plan('active', []), 'free');
    // Several items: the larger plan.
    assert.equal(plan('active', ['price_pro', 'price_biz']), 'business');
  });

  test('past_due keeps the plan during the grace period, then free', () => {
    assert.equal(plan('past_due', ['price_biz'], new Date(now.getTime() - 6 * DAY)), 'business');
    assert.equal(plan('past_due', ['price_biz'], new Date(now.getTime() - 7 * DAY + 1)), 'business');
    assert.equal(plan('past_due', ['price_biz'], new Date(now.getTime() - 7 * DAY)), 'free');
    assert.equal(plan('past_due', ['price_biz'], null), 'business', 'first seen now');
    const d = planForSubscription({ status: 'past_due', priceIds: ['price_pro'], pastDueSince: now }, billing, now);
    assert.equal(d.graceEndsAt?.toISOString(), '2026-11-17T12:00:00.000Z');
    assert.equal(
      planForSubscription(
        { status: 'past_due', priceIds: ['price_pro'], pastDueSince: now },
        { ...billing, graceDays: 0 },
        now,
      ).plan,
      'free',
    );
  });

  test('canceled, unpaid, incomplete, incomplete_expired, paused and unknown statuses give free', () => {
    for (const status of ['canceled', 'unpaid', 'incomplete', 'incomplete_expired', 'paused', 'something_new']) {
      assert.equal(plan(status, ['price_biz']), 'free', status);
    }
  });

  test('with two subscriptions, one that grants a plan wins, then the larger plan, then the tracked one', () => {
    const s = (id: string, status: string, price: string): SubscriptionSnapshot => ({
      id,
      customerId: 'cus_1',
      status,
      priceIds: [price],
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      organizationId: null,
    });
    assert.equal(
      chooseSubscription([s('old', 'canceled', 'price_biz'), s('new', 'active', 'price_pro')], 'old', billing.prices)
        ?.id,
      'new',
    );
    assert.equal(
      chooseSubscription([s('a', 'active', 'price_pro'), s('b', 'active', 'price_biz')], 'a', billing.prices)?.id,
      'b',
    );
    assert.equal(
      chooseSubscription([s('a', 'canceled', 'price_pro'), s('b', 'canceled', 'price_pro')], 'a', billing.prices)?.id,
      'a',
    );
    assert.equal(chooseSubscription([], 'a', billing.prices), null);
  });
});

describe('billing configuration', () => {
  test('configured only with the secret key, the webhook secret and at least one price', () => {
    assert.equal(loadConfig({}).billing.configured, false);
    assert.equal(
      loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_WEBHOOK_SECRET: 'whsec_1' }).billing.configured,
      false,
    );
    assert.equal(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1', STRIPE_PRICE_PRO: 'price_1' }).billing.configured, false);
    const c = loadConfig({
      STRIPE_SECRET_KEY: 'sk_test_1',
      STRIPE_WEBHOOK_SECRET: 'whsec_1',
      STRIPE_PRICE_BUSINESS: 'price_b',
    }).billing;
    assert.equal(c.configured, true);
    assert.deepEqual(c.prices, { pro: undefined, business: 'price_b' });
    assert.equal(c.graceDays, 7);
    assert.equal(c.api, undefined);
    // Empty variables (as docker-compose writes them) mean unset.
    assert.equal(
      loadConfig({ STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: ' ', STRIPE_PRICE_PRO: '', STRIPE_API_BASE: '' })
        .billing.configured,
      false,
    );
  });

  test('STRIPE_API_BASE becomes host, port and protocol; TRACKER_BILLING_GRACE_DAYS is read', () => {
    assert.deepEqual(loadConfig({ STRIPE_API_BASE: 'http://127.0.0.1:12111' }).billing.api, {
      host: '127.0.0.1',
      port: 12111,
      protocol: 'http',
    });
    assert.deepEqual(loadConfig({ STRIPE_API_BASE: 'https://stripe-mock.internal' }).billing.api, {
      host: 'stripe-mock.internal',
      port: 443,
      protocol: 'https',
    });
    assert.equal(loadConfig({ TRACKER_BILLING_GRACE_DAYS: '3' }).billing.graceDays, 3);
    assert.throws(() => loadConfig({ STRIPE_API_BASE: 'ftp://x' }), ConfigError);
    assert.throws(() => loadConfig({ TRACKER_BILLING_GRACE_DAYS: '-1' }), ConfigError);
  });
});

describe('reading Stripe objects', () => {
  test('a subscription snapshot: prices of the items, period end per item, metadata', () => {
    const sub = subscriptionObject('sub_1', {
      customer: 'cus_1',
      status: 'past_due',
      price: 'price_pro',
      metadata: { organizationId: 'org-1' },
      currentPeriodEnd: 1_800_000_000,
    }) as unknown as Stripe.Subscription;
    assert.deepEqual(toSnapshot(sub), {
      id: 'sub_1',
      customerId: 'cus_1',
      status: 'past_due',
      priceIds: ['price_pro'],
      currentPeriodEnd: new Date(1_800_000_000_000),
      cancelAtPeriodEnd: false,
      organizationId: 'org-1',
    });
    // Older API versions: period end on the subscription, expanded customer.
    const legacy = { ...sub, customer: { id: 'cus_2' }, current_period_end: 1_700_000_000 } as any;
    legacy.items = { data: [{ price: { id: 'price_biz' } }] };
    const snap = toSnapshot(legacy);
    assert.equal(snap.customerId, 'cus_2');
    assert.equal(snap.currentPeriodEnd?.getTime(), 1_700_000_000_000);
    assert.deepEqual(snap.priceIds, ['price_biz']);
  });

  test('the references of each handled event', () => {
    const sub = subscriptionObject('sub_9', {
      customer: 'cus_9',
      status: 'active',
      price: 'price_pro',
      metadata: { organizationId: 'org-9' },
    });
    const ev = (type: string, object: Record<string, unknown>) =>
      refsOf(eventOf(type, object, { id: 'evt_1' }) as unknown as Stripe.Event);
    const expected = { id: 'evt_1', organizationId: 'org-9', customerId: 'cus_9', subscriptionId: 'sub_9' };
    assert.deepEqual(ev('checkout.session.completed', completedCheckoutSession('org-9', 'cus_9', 'sub_9')), {
      ...expected,
      type: 'checkout.session.completed',
    });
    for (const type of [
      'customer.subscription.created',
      'customer.subscription.updated',
      'customer.subscription.deleted',
    ]) {
      assert.deepEqual(ev(type, sub), { ...expected, type });
    }
    assert.deepEqual(ev('invoice.payment_failed', failedInvoice('cus_9', 'sub_9', 'org-9')), {
      ...expected,
      type: 'invoice.payment_failed',
    });
    // Pre-2025 invoices name the subscription directly.
    const legacyInvoice = { id: 'in_1', object: 'invoice', customer: 'cus_9', subscription: 'sub_9', parent: null };
    assert.deepEqual(ev('invoice.payment_failed', legacyInvoice), {
      ...expected,
      organizationId: null,
      type: 'invoice.payment_failed',
    });
    // A one-off payment Checkout is not a subscription.
    const payment = { ...completedCheckoutSession('org-9', 'cus_9', 'sub_9'), mode: 'payment', subscription: null };
    assert.deepEqual(ev('checkout.session.completed', payment), {
      id: 'evt_1',
      type: 'checkout.session.completed',
      organizationId: null,
      customerId: null,
      subscriptionId: null,
    });
  });
});
