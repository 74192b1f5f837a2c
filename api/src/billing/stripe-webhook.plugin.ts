import {
  errorMessage,
  AppError,
  applyStripeEvent,
  expireBillingGrace,
  httpStatusFor,
  isHandledStripeEvent,
  type AppErrorCode,
  type Config,
} from '@tracker/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type Stripe from 'stripe';
import type { DataSource } from 'typeorm';
import { refsOf, stripeFor, subscriptionReader } from './stripe';

export const STRIPE_WEBHOOK_PATH = '/billing/stripe/webhook';

export interface StripeWebhookOptions {
  ds: DataSource;
  config: Config;
  /** How often past-due organizations past their grace period move to free; 0 = never (tests). Default 15 min. */
  graceSweepMs?: number;
}

function sendError(reply: FastifyReply, code: AppErrorCode, message: string): FastifyReply {
  return reply.code(httpStatusFor(code)).send({ error: { code, message } });
}

/**
 * `POST /billing/stripe/webhook`. Register it with `app.register` so it gets its own scope:
 * its content-type parser keeps the body as the exact bytes Stripe signed (a parsed and
 * re-serialised body would not verify), without changing how other routes parse JSON.
 */
export async function stripeWebhookPlugin(scope: FastifyInstance, options: StripeWebhookOptions): Promise<void> {
  const { ds, config } = options;
  const billing = config.billing;

  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_request, body, done) =>
    done(null, body),
  );

  scope.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (error instanceof AppError) return sendError(reply, error.code, error.message);
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return sendError(reply, 'PAYLOAD_TOO_LARGE', 'body exceeds the limit of 1 MB');
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, 'BAD_USER_INPUT', error.message);
    }
    // Stripe unreachable, database down…: nothing was committed, and Stripe retries non-2xx answers.
    request.log.error({ err: error }, 'stripe webhook failed');
    return reply
      .code(500)
      .send({ error: { code: 'INTERNAL', message: 'could not apply the event; it will be retried' } });
  });

  const stripe: Stripe | undefined = billing.configured ? stripeFor(billing) : undefined;
  const retrieveSubscription = stripe ? subscriptionReader(stripe) : undefined;

  scope.post(STRIPE_WEBHOOK_PATH, async (request, reply) => {
    if (!stripe || !retrieveSubscription || !billing.webhookSecret) {
      return sendError(reply, 'BILLING_NOT_CONFIGURED', 'Stripe billing is not configured on this installation');
    }
    const signature = request.headers['stripe-signature'];
    if (typeof signature !== 'string' || signature === '') {
      return sendError(reply, 'BAD_USER_INPUT', 'Stripe-Signature header is missing');
    }
    if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
      return sendError(reply, 'BAD_USER_INPUT', 'body: is required');
    }
    let event: Stripe.Event;
    try {
      // Verifies the HMAC over the raw bytes and that the timestamp is at most 5 minutes old.
      event = stripe.webhooks.constructEvent(request.body, signature, billing.webhookSecret);
    } catch (err) {
      return sendError(reply, 'BAD_USER_INPUT', `invalid Stripe signature: ${errorMessage(err)}`);
    }
    if (!isHandledStripeEvent(event.type)) return { received: true, handled: false };
    const result = await applyStripeEvent(ds, refsOf(event), { billing, retrieveSubscription });
    if (result.applied && result.planBefore !== result.plan && result.organizationId) {
      request.log.info(
        { event: event.id, type: event.type, organization: result.organizationId, plan: result.plan },
        'plan changed by Stripe',
      );
    }
    return { received: true, handled: true, applied: result.applied };
  });

  const every = options.graceSweepMs ?? 15 * 60_000;
  if (billing.configured && every > 0) {
    let inFlight: Promise<void> | undefined;
    const sweep = () => {
      inFlight ??= expireBillingGrace(ds, billing)
        .then((expired) => {
          if (expired.length > 0)
            scope.log.info({ organizations: expired }, 'billing grace period over: moved to free');
        })
        .catch((err) => scope.log.error({ err }, 'billing grace sweep failed'))
        .finally(() => {
          inFlight = undefined;
        });
    };
    const timer = setInterval(sweep, every);
    timer.unref();
    scope.addHook('onReady', async () => sweep());
    scope.addHook('onClose', async () => {
      clearInterval(timer);
      await inFlight;
    });
  }
}
