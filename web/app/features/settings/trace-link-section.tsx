import { Form } from '@remix-run/react';
import { Field } from '../../components/field';
import { Section } from './settings-section';

/**
 * Where the issue page links an event's trace id (OpenTelemetry and Sentry events carry one):
 * the project's Jaeger, Tempo or other trace viewer, as a URL with `{traceId}`.
 */
export function TraceLinkSection({ template, busy }: { template: string | null; busy: boolean }) {
  return (
    <Section id="trace-link-heading" title="Trace viewer link">
      <p className="muted">
        The issue page shows an event&apos;s trace id with an &ldquo;Open trace&rdquo; link to this URL. Use{' '}
        <code>{'{traceId}'}</code> and, if your viewer takes it, <code>{'{spanId}'}</code>. Leave it empty for no link.
      </p>
      <Form method="post" className="form form-inline">
        <Field
          id="trace-url-template"
          label="URL template"
          name="template"
          type="url"
          defaultValue={template ?? ''}
          maxLength={500}
          placeholder="https://jaeger.example.com/trace/{traceId}"
          autoComplete="off"
        />
        <button type="submit" name="intent" value="setTraceLink" className="button" disabled={busy}>
          Save link
        </button>
      </Form>
    </Section>
  );
}
