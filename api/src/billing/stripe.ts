import type { BillingConfig, StripeEventRefs, SubscriptionSnapshot } from '@tracker/core';
import type Stripe from 'stripe';

let sdk: typeof Stripe | undefined;
/** The SDK, loaded on first use: an instance without billing never pays its load time (0.07–0.14 s measured). */
function stripeSdk(): typeof Stripe {
  return (sdk ??= require('stripe') as typeof Stripe);
}

/**
 * The one place the Stripe SDK is configured. Clients are cached per billing configuration;
 * STRIPE_API_BASE (tests: a loopback stand-in) becomes the SDK's host, port and protocol.
 */
const clients = new WeakMap<BillingConfig, Stripe>();

export function stripeFor(billing: BillingConfig): Stripe {
  let client = clients.get(billing);
  if (!client) {
    if (!billing.secretKey) throw new Error('stripeFor: STRIPE_SECRET_KEY is not set');
    client = new (stripeSdk())(billing.secretKey, {
      ...(billing.api ?? {}),
      // A webhook holds its organization's row lock while it re-reads the subscription.
      timeout: 20_000,
      maxNetworkRetries: 1,
      telemetry: false,
      appInfo: { name: 'Tracker' },
    });
    clients.set(billing, client);
  }
  return client;
}

function idOf(ref: string | { id: string } | null | undefined): string | null {
  if (!ref) return null;
  return typeof ref === 'string' ? ref : ref.id;
}

/** The part of a Stripe subscription Tracker keeps (core knows nothing of the SDK). */
export function toSnapshot(sub: Stripe.Subscription): SubscriptionSnapshot {
  const items = sub.items?.data ?? [];
  // Since API 2025-03-31 the billing period is per item; older versions had it on the subscription.
  const periodEnds = items.map((i) => i.current_period_end).filter((n): n is number => typeof n === 'number');
  const legacyEnd = (sub as unknown as { current_period_end?: number }).current_period_end;
  const end = periodEnds.length > 0 ? Math.max(...periodEnds) : legacyEnd;
  return {
    id: sub.id,
    customerId: idOf(sub.customer) ?? '',
    status: sub.status,
    priceIds: items.map((i) => idOf(i.price)).filter((p): p is string => !!p),
    currentPeriodEnd: typeof end === 'number' ? new Date(end * 1000) : null,
    // The portal cancels either "at period end" or at a set time (`cancel_at`): both end it.
    cancelAtPeriodEnd: sub.cancel_at_period_end || sub.cancel_at != null,
    organizationId: sub.metadata?.organizationId ?? null,
  };
}

/** Re-reads a subscription; null when Stripe answers that it does not exist. */
export function subscriptionReader(stripe: Stripe): (id: string) => Promise<SubscriptionSnapshot | null> {
  return async (id) => {
    try {
      return toSnapshot(await stripe.subscriptions.retrieve(id));
    } catch (err) {
      if (err instanceof stripeSdk().errors.StripeError && (err.statusCode === 404 || err.code === 'resource_missing'))
        return null;
      throw err;
    }
  };
}

/**
 * What a verified event points at. Only ids are taken from the body: the state is re-read.
 * Handles both invoice shapes (`invoice.parent.subscription_details` since 2025-03-31,
 * `invoice.subscription` before), since the endpoint's API version is set in Stripe.
 */
export function refsOf(event: Stripe.Event): StripeEventRefs {
  const base = { id: event.id, type: event.type, organizationId: null, customerId: null, subscriptionId: null };
  switch (event.type) {
    case 'checkout.session.completed': {
      const s = event.data.object;
      if (s.mode !== 'subscription') return base;
      return {
        ...base,
        organizationId: s.client_reference_id ?? s.metadata?.organizationId ?? null,
        customerId: idOf(s.customer),
        subscriptionId: idOf(s.subscription),
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const s = event.data.object;
      return {
        ...base,
        organizationId: s.metadata?.organizationId ?? null,
        customerId: idOf(s.customer),
        subscriptionId: s.id,
      };
    }
    case 'invoice.payment_failed': {
      const inv = event.data.object;
      const details = inv.parent?.subscription_details;
      const legacy = (inv as unknown as { subscription?: string | { id: string } | null }).subscription;
      return {
        ...base,
        organizationId: details?.metadata?.organizationId ?? null,
        customerId: idOf(inv.customer),
        subscriptionId: idOf(details?.subscription) ?? idOf(legacy),
      };
    }
    default:
      return base;
  }
}
