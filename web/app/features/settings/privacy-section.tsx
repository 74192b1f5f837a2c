import { Form, useFetcher } from '@remix-run/react';
import { useRef } from 'react';
import type { ProjectPrivacyQuery } from '../../graphql/graphql';
import { Section } from './settings-section';

type Privacy = NonNullable<ProjectPrivacyQuery['project']>['privacy'];
type Preview = { sample: string; event: string };
type PreviewAnswer = { error: string | null; preview: Preview | null };

/** Waits this long after the last keystroke before asking for a new preview. */
const PREVIEW_DELAY_MS = 400;

/**
 * Every field of `updateProjectPrivacy`, and the sample event as the edge would store it with the
 * form's settings. Without JavaScript "Preview" posts the form; with it, every change asks the
 * server again through a fetcher (the scrubbing is the edge's own code, so it runs there).
 */
export function PrivacySection({
  privacy,
  preview,
  answer,
  busy,
}: {
  privacy: Privacy;
  preview: Preview;
  answer: PreviewAnswer | undefined;
  busy: boolean;
}) {
  const fetcher = useFetcher<PreviewAnswer>();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const form = useRef<HTMLFormElement>(null);
  const live = fetcher.data ?? answer;
  const shown = live?.preview ?? preview;
  const error = fetcher.data ? fetcher.data.error : null;
  function onChange() {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      if (!form.current) return;
      const data = new FormData(form.current);
      data.set('intent', 'previewPrivacy');
      fetcher.submit(data, { method: 'post' });
    }, PREVIEW_DELAY_MS);
  }
  return (
    <Section id="privacy-heading" title="Privacy and scrubbing">
      <p className="muted">
        What the ingest edge removes before anything is stored. A removed value becomes <code>[Filtered]</code>.
      </p>
      <Form method="post" className="form privacy-form" ref={form} onChange={onChange}>
        <div className="checkbox-row">
          <label>
            <input type="checkbox" name="scrubDefaults" defaultChecked={privacy.scrubDefaults} /> Scrub the built-in
            keys (password, secret, token, auth, cookie, session…) and card numbers
          </label>
          <label>
            <input type="checkbox" name="scrubIpAddresses" defaultChecked={privacy.scrubIpAddresses} /> Scrub IP
            addresses
          </label>
        </div>
        <div className="field">
          <label htmlFor="privacy-fields">Your own sensitive keys</label>
          <textarea
            id="privacy-fields"
            name="sensitiveFields"
            rows={3}
            defaultValue={privacy.sensitiveFields.join('\n')}
            aria-describedby="privacy-fields-hint"
          />
          <p id="privacy-fields-hint" className="hint">
            One per line; matched anywhere in a key, in any letter case (<code>ssn</code> also covers{' '}
            <code>customer_SSN</code>). At most 50.
          </p>
        </div>
        <div className="privacy-preview">
          <div className="field">
            <label htmlFor="privacy-sample">Sample event (JSON, as an SDK sends it)</label>
            <textarea id="privacy-sample" name="sample" rows={14} spellCheck={false} defaultValue={preview.sample} />
          </div>
          <div className="field">
            <h3 id="privacy-result-heading">As it would be stored</h3>
            <pre aria-labelledby="privacy-result-heading" aria-live="polite" tabIndex={0} data-testid="scrub-preview">
              {shown.event}
            </pre>
            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
          </div>
        </div>
        <div className="form-actions">
          <button type="submit" name="intent" value="previewPrivacy" className="button" disabled={busy}>
            Preview
          </button>
          <button type="submit" name="intent" value="updatePrivacy" className="button button-primary" disabled={busy}>
            Save privacy settings
          </button>
        </div>
      </Form>
    </Section>
  );
}
