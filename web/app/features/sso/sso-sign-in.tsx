import { useFetcher } from '@remix-run/react';
import { Field, FormError } from '../../components/field';

/**
 * "Sign in with SSO": the work email finds the organization by its domain, and the API answers
 * the provider's sign-in page. A fetcher, not a document form: the redirect to the provider is
 * then a script navigation, which the page's CSP (`form-action 'self'`) does not govern.
 */
export function SsoSignIn({ defaultEmail }: { defaultEmail?: string }) {
  const fetcher = useFetcher<{ error?: string }>();
  const busy = fetcher.state !== 'idle';
  return (
    <fetcher.Form method="post" className="card form">
      <Field
        label="Work email"
        name="email"
        type="email"
        autoComplete="email"
        required
        defaultValue={defaultEmail}
        hint="Your organization's identity provider is found from its domain."
      />
      <FormError message={fetcher.data?.error} />
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Redirecting…' : 'Continue'}
      </button>
    </fetcher.Form>
  );
}
