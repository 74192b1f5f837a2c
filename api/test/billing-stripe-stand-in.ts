// A loopback stand-in for the parts of Stripe's API that Tracker calls, answering with Stripe's
// JSON shapes (API version 2026-10-28), so the real SDK can be pointed at it in tests
// (STRIPE_API_BASE=http://127.0.0.1:<port>). Not a test file itself: the billing tests use it.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInRequest {
  method: string;
  path: string;
  /** Form fields as the SDK encodes them: `metadata[organizationId]`, `line_items[0][price]`… */
  form: Record<string, string>;
  idempotencyKey: string | undefined;
}

export interface SubscriptionState {
  customer: string;
  status: string;
  price: string;
  metadata?: Record<string, string>;
  cancelAtPeriodEnd?: boolean;
  currentPeriodEnd?: number;
}

export interface StripeStandIn {
  url: string;
  requests: StandInRequest[];
  /** Stripe's current state of each subscription, as the test decides it. */
  subscriptions: Map<string, Record<string, unknown>>;
  setSubscription(id: string, state: SubscriptionState): Record<string, unknown>;
  /** How many times a subscription was read (GET /v1/subscriptions/:id). */
  reads(id: string): number;
  /** Subscriptions whose reads answer 500 (an outage), until removed. */
  failingReads: Set<string>;
  close(): Promise<void>;
}

export const STAND_IN_KEY = 'sk_test_stand_in_0123456789';

function id(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

function now(): number {
  return Math.floor(Date.now() / 1000);
}

export function priceObject(priceId: string): Record<string, unknown> {
  return {
    id: priceId,
    object: 'price',
    active: true,
    billing_scheme: 'per_unit',
    created: 1_760_000_000,
    currency: 'usd',
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: null,
    product: `prod_${priceId}`,
    recurring: { interval: 'month', interval_count: 1, meter: null, usage_type: 'licensed' },
    tax_behavior: 'unspecified',
    type: 'recurring',
    unit_amount: 2900,
    unit_amount_decimal: '2900',
  };
}

/** A subscription object as `GET /v1/subscriptions/:id` returns it. */
export function subscriptionObject(subId: string, s: SubscriptionState): Record<string, unknown> {
  const start = now() - 86_400;
  const end = s.currentPeriodEnd ?? start + 30 * 86_400;
  return {
    id: subId,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: start,
    billing_cycle_anchor_config: null,
    billing_mode: { type: 'flexible' },
    billing_thresholds: null,
    cancel_at: s.cancelAtPeriodEnd ? end : null,
    cancel_at_period_end: s.cancelAtPeriodEnd ?? false,
    canceled_at: s.status === 'canceled' ? now() : null,
    cancellation_details: { comment: null, feedback: null, reason: null },
    collection_method: 'charge_automatically',
    created: start,
    currency: 'usd',
    customer: s.customer,
    days_until_due: null,
    default_payment_method: 'pm_card_visa',
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: s.status === 'canceled' ? now() : null,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: {
      object: 'list',
      data: [
        {
          id: `si_${subId.slice(4)}`,
          object: 'subscription_item',
          billing_thresholds: null,
          created: start,
          current_period_end: end,
          current_period_start: start,
          discounts: [],
          metadata: {},
          price: priceObject(s.price),
          quantity: 1,
          subscription: subId,
          tax_rates: [],
        },
      ],
      has_more: false,
      total_count: 1,
      url: `/v1/subscription_items?subscription=${subId}`,
    },
    latest_invoice: `in_${subId.slice(4)}`,
    livemode: false,
    metadata: s.metadata ?? {},
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: start,
    status: s.status,
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    trial_start: null,
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: StandInRequest[] = [];
  const subscriptions = new Map<string, Record<string, unknown>>();
  const readCounts = new Map<string, number>();
  const failingReads = new Set<string>();

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
    const key = req.headers['idempotency-key'];
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      form,
      idempotencyKey: typeof key === 'string' ? key : undefined,
    });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${STAND_IN_KEY}`) {
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
    }
    const sub = url.pathname.match(/^\/v1\/subscriptions\/([^/]+)$/);
    if (req.method === 'GET' && sub) {
      readCounts.set(sub[1], (readCounts.get(sub[1]) ?? 0) + 1);
      if (failingReads.has(sub[1])) {
        return send(500, { error: { type: 'api_error', message: 'An unknown error occurred (stand-in outage)' } });
      }
      const found = subscriptions.get(sub[1]);
      if (!found) {
        return send(404, {
          error: {
            code: 'resource_missing',
            doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
            message: `No such subscription: '${sub[1]}'`,
            param: 'id',
            type: 'invalid_request_error',
          },
        });
      }
      return send(200, found);
    }
    if (req.method === 'POST' && url.pathname === '/v1/customers') {
      return send(200, {
        id: id('cus'),
        object: 'customer',
        address: null,
        balance: 0,
        created: now(),
        currency: null,
        default_source: null,
        delinquent: false,
        description: null,
        email: form.email ?? null,
        invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
        invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
        livemode: false,
        metadata: metadataOf(form),
        name: form.name ?? null,
        phone: null,
        preferred_locales: [],
        shipping: null,
        tax_exempt: 'none',
        test_clock: null,
      });
    }
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const sessionId = id('cs_test');
      return send(200, {
        id: sessionId,
        object: 'checkout.session',
        cancel_url: form.cancel_url ?? null,
        client_reference_id: form.client_reference_id ?? null,
        created: now(),
        currency: 'usd',
        customer: form.customer ?? null,
        expires_at: now() + 86_400,
        livemode: false,
        metadata: metadataOf(form),
        mode: form.mode,
        payment_status: 'unpaid',
        status: 'open',
        subscription: null,
        success_url: form.success_url ?? null,
        ui_mode: 'hosted',
        url: `https://checkout.stripe.com/c/pay/${sessionId}`,
      });
    }
    if (req.method === 'POST' && url.pathname === '/v1/billing_portal/sessions') {
      const sessionId = id('bps');
      return send(200, {
        id: sessionId,
        object: 'billing_portal.session',
        configuration: 'bpc_stand_in',
        created: now(),
        customer: form.customer,
        flow: null,
        livemode: false,
        locale: null,
        on_behalf_of: null,
        return_url: form.return_url ?? null,
        url: `https://billing.stripe.com/p/session/test_${sessionId.slice(4)}`,
      });
    }
    return send(404, {
      error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    subscriptions,
    setSubscription(subId, state) {
      const object = subscriptionObject(subId, state);
      subscriptions.set(subId, object);
      return object;
    },
    reads: (subId) => readCounts.get(subId) ?? 0,
    failingReads,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function metadataOf(form: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) {
    const m = k.match(/^metadata\[(.+)\]$/);
    if (m) out[m[1]] = v;
  }
  return out;
}

/** A webhook event envelope as Stripe sends it. */
export function eventOf(
  type: string,
  object: Record<string, unknown>,
  extra: { id?: string; created?: number } = {},
): Record<string, unknown> {
  return {
    id: extra.id ?? id('evt'),
    object: 'event',
    api_version: '2026-10-28.endive',
    created: extra.created ?? now(),
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}

/** The Checkout session object of a `checkout.session.completed` event. */
export function completedCheckoutSession(org: string, customer: string, subscription: string): Record<string, unknown> {
  return {
    id: id('cs_test'),
    object: 'checkout.session',
    client_reference_id: org,
    created: now(),
    currency: 'usd',
    customer,
    livemode: false,
    metadata: { organizationId: org },
    mode: 'subscription',
    payment_status: 'paid',
    status: 'complete',
    subscription,
    url: null,
  };
}

/** The invoice object of an `invoice.payment_failed` event (2025-03-31+ shape: `parent`). */
export function failedInvoice(customer: string, subscription: string, org: string): Record<string, unknown> {
  return {
    id: `in_${subscription.slice(4)}`,
    object: 'invoice',
    amount_due: 2900,
    amount_paid: 0,
    attempt_count: 1,
    attempted: true,
    billing_reason: 'subscription_cycle',
    collection_method: 'charge_automatically',
    created: now(),
    currency: 'usd',
    customer,
    livemode: false,
    metadata: {},
    next_payment_attempt: now() + 3 * 86_400,
    parent: {
      quote_details: null,
      subscription_details: { metadata: { organizationId: org }, subscription },
      type: 'subscription_details',
    },
    status: 'open',
  };
}

export function newId(prefix: string): string {
  return id(prefix);
}
