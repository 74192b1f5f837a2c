import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormError } from '../components/field';
import { ADMIN_INSTANCE, ADMIN_TEST_EMAIL } from '../features/admin/queries';
import { mutateApi, queryApi } from '../lib/graphql.server';

export async function loader(args: LoaderFunctionArgs) {
  return (await queryApi(args, ADMIN_INSTANCE)).adminInstance;
}

/** "Send test email": one message to the admin's own address; the relay's answer or refusal is shown as is. */
export async function action(args: ActionFunctionArgs) {
  const r = await mutateApi(args, ADMIN_TEST_EMAIL);
  if (!r.ok) return data({ error: r.error.message, done: null }, { status: r.error.code === 'FORBIDDEN' ? 403 : 400 });
  const { to, response } = r.data.adminSendTestEmail;
  return { error: null, done: `Sent to ${to}. The relay answered: ${response}` };
}

const yes = (on: boolean) => (on ? 'set' : 'not set');

export default function AdminInstance() {
  const s = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <div className="stack">
      <section className="card" aria-labelledby="instance-heading">
        <h2 id="instance-heading">Instance</h2>
        <dl className="facts">
          <dt>Tracker</dt>
          <dd>{s.version}</dd>
          <dt>Node.js</dt>
          <dd>{s.nodeVersion}</dd>
          <dt>Database</dt>
          <dd>
            {s.databaseKind === 'pglite' ? 'embedded' : 'PostgreSQL'}: {s.databaseVersion}
          </dd>
          <dt>Dead letters</dt>
          <dd>{s.deadLetterCount}</dd>
          <dt>Migrations</dt>
          <dd>
            {s.migrations.length} applied
            {s.pendingMigrations.length > 0
              ? `, ${s.pendingMigrations.length} pending: run npm run tracker -- migrate`
              : ', none pending'}
          </dd>
        </dl>
        <details>
          <summary>Applied migrations</summary>
          <ol className="migrations mono">
            {s.migrations.map((m) => (
              <li key={m.name}>{m.name}</li>
            ))}
          </ol>
        </details>
      </section>

      <section className="card" aria-labelledby="email-heading">
        <h2 id="email-heading">Email</h2>
        {s.smtp.configured ? (
          <p>
            Email goes out through {s.smtp.host}:{s.smtp.port} ({s.smtp.secure ? 'TLS' : 'STARTTLS when offered'}) from{' '}
            {s.smtp.from}.
          </p>
        ) : (
          <p>
            Email is not configured: alert, invitation and usage-warning emails cannot be sent. Set TRACKER_SMTP_URL
            (and TRACKER_SMTP_FROM), then restart Tracker.
          </p>
        )}
        <div aria-live="polite">
          <FormError message={result?.error} />
          {result?.done && (
            <p className="notice" role="status">
              {result.done}
            </p>
          )}
        </div>
        <Form method="post">
          <button type="submit" className="button" disabled={busy}>
            Send test email
          </button>
        </Form>
      </section>

      <section className="card" aria-labelledby="stripe-heading">
        <h2 id="stripe-heading">Stripe billing</h2>
        <p>
          {s.stripe.configured
            ? `Configured (${s.stripe.mode} mode): organizations can subscribe through Stripe Checkout.`
            : 'Not configured: plans are changed on the Organizations tab or with npm run tracker -- org:set-plan.'}
        </p>
        <dl className="facts">
          <dt>STRIPE_SECRET_KEY</dt>
          <dd>{s.stripe.secretKey ? `${yes(true)} (${s.stripe.mode})` : yes(false)}</dd>
          <dt>STRIPE_WEBHOOK_SECRET</dt>
          <dd>{yes(s.stripe.webhookSecret)}</dd>
          <dt>STRIPE_PRICE_PRO</dt>
          <dd>{yes(s.stripe.pricePro)}</dd>
          <dt>STRIPE_PRICE_BUSINESS</dt>
          <dd>{yes(s.stripe.priceBusiness)}</dd>
        </dl>
      </section>
    </div>
  );
}
