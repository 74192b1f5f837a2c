import { Form } from '@remix-run/react';
import { Field } from '../../components/field';
import type { ApiTokensQuery } from '../../graphql/graphql';
import { Section, type FormatTime, type SectionData } from './settings-section';
import { TokenTable } from './token-table';

type ApiTokensSectionProps = { tokens: SectionData<ApiTokensQuery>; time: FormatTime; busy: boolean };

/** The signed-in user's own API tokens: create (with scopes) and revoke. */
export function ApiTokensSection({ tokens, time, busy }: ApiTokensSectionProps) {
  return (
    <Section id="api-tokens-heading" title="Your API tokens">
      <p className="muted">Personal tokens for integrations: they act as you, within their scopes.</p>
      {tokens.reason ? (
        <p className="muted">{tokens.reason}</p>
      ) : (
        <>
          <TokenTable
            tokens={tokens.data?.apiTokens ?? []}
            revokeIntent="revokeApiToken"
            time={time}
            busy={busy}
            caption="API tokens"
          />
          <Form method="post" className="form form-inline">
            <Field
              id="api-token-name"
              label="Token name"
              name="name"
              required
              placeholder="Grafana"
              autoComplete="off"
            />
            <fieldset className="checkbox-row">
              <legend>Scopes</legend>
              {['READ', 'WRITE', 'ADMIN'].map((scope) => (
                <label key={scope}>
                  <input type="checkbox" name="scopes" value={scope} defaultChecked={scope === 'READ'} />{' '}
                  {scope.toLowerCase()}
                </label>
              ))}
            </fieldset>
            <button
              type="submit"
              name="intent"
              value="createApiToken"
              className="button button-primary"
              disabled={busy}
            >
              Create API token
            </button>
          </Form>
        </>
      )}
    </Section>
  );
}
