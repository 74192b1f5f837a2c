import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { ConfirmButton } from '../components/confirm-button';
import { FormError } from '../components/field';
import { DeadLettersTable } from '../features/admin/dead-letters-table';
import { ADMIN_DEAD_LETTERS, ADMIN_PURGE, ADMIN_REPLAY } from '../features/admin/queries';
import { readString } from '../lib/form.server';
import { mutateApi, queryApi } from '../lib/graphql.server';

export async function loader(args: LoaderFunctionArgs) {
  const { adminDeadLetters } = await queryApi(args, ADMIN_DEAD_LETTERS);
  return { ...adminDeadLetters, now: new Date().toISOString() };
}

type Result = { error: string | null; done: string | null };

export async function action(args: ActionFunctionArgs) {
  const form = await args.request.formData();
  const intent = readString(form, 'intent');
  let outcome: Result;
  if (intent === 'purge') {
    const text = readString(form, 'olderThanDays');
    // The API checks the range; a field that is not a whole number is said here in the same words.
    if (!/^\d{1,6}$/.test(text)) {
      return data<Result>(
        { error: 'olderThanDays: must be a whole number from 0 to 36500', done: null },
        { status: 400 },
      );
    }
    const r = await mutateApi(args, ADMIN_PURGE, { olderThanDays: Number(text) });
    outcome = r.ok
      ? { error: null, done: `Deleted ${r.data.adminPurgeDeadLetters} dead letter(s) older than ${text} day(s).` }
      : { error: r.error.message, done: null };
    if (!r.ok) return data(outcome, { status: r.error.code === 'FORBIDDEN' ? 403 : 400 });
    return outcome;
  }
  const all = intent === 'replayAll';
  const variables: { ids?: string[]; all?: boolean } = all ? { all: true } : { ids: [readString(form, 'id')] };
  const r = await mutateApi(args, ADMIN_REPLAY, variables);
  if (!r.ok)
    return data<Result>({ error: r.error.message, done: null }, { status: r.error.code === 'FORBIDDEN' ? 403 : 400 });
  const ids = r.data.adminReplayDeadLetters;
  return {
    error: null,
    done:
      ids.length === 0
        ? 'Nothing to replay: it was replayed or purged meanwhile.'
        : `Queued ${ids.length} dead letter(s) again: ${ids.map((id) => `#${id}`).join(', ')}.`,
  };
}

export default function AdminDeadLetters() {
  const { nodes, totalCount, now } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <section className="card" aria-labelledby="dead-letters-heading">
      <h2 id="dead-letters-heading">Dead letters ({totalCount})</h2>
      <p className="muted">
        Jobs the worker set aside after 5 failed attempts, with the last error. Replay them once the cause is fixed;
        payloads are not shown here (they are tenants&apos; events).
      </p>
      <div aria-live="polite">
        <FormError message={result?.error} />
        {result?.done && (
          <p className="notice" role="status">
            {result.done}
          </p>
        )}
      </div>
      <DeadLettersTable letters={nodes} now={now} busy={busy} />
      <div className="admin-actions">
        {totalCount > 0 && (
          <Form method="post">
            <button type="submit" name="intent" value="replayAll" className="button" disabled={busy}>
              Replay all
            </button>
          </Form>
        )}
        <Form method="post" className="inline-form">
          <label htmlFor="purge-days">Purge those whose last failure is older than (days)</label>
          <input
            id="purge-days"
            name="olderThanDays"
            type="number"
            min={0}
            max={36_500}
            step={1}
            defaultValue={30}
            required
          />
          <ConfirmButton intent="purge" label="Purge" confirmLabel="Delete them for good" disabled={busy} />
        </Form>
      </div>
    </section>
  );
}
