import { Form } from '@remix-run/react';
import { Field } from '../../components/field';
import type { UploadTokensQuery } from '../../graphql/graphql';
import { Section, type FormatTime, type SectionData } from './settings-section';
import { TokenTable } from './token-table';

type UploadTokensSectionProps = { tokens: SectionData<UploadTokensQuery>; time: FormatTime; busy: boolean };

export function UploadTokensSection({ tokens, time, busy }: UploadTokensSectionProps) {
  return (
    <Section id="upload-heading" title="Upload tokens">
      <p className="muted">For CI: upload source maps and register releases. The secret is shown once.</p>
      {tokens.reason ? (
        <p className="muted">{tokens.reason}</p>
      ) : (
        <>
          <TokenTable
            tokens={tokens.data?.uploadTokens ?? []}
            revokeIntent="revokeUploadToken"
            time={time}
            busy={busy}
            caption="Upload tokens"
          />
          <Form method="post" className="form form-inline">
            <Field id="upload-token-name" label="Token name" name="name" required placeholder="CI" autoComplete="off" />
            <button
              type="submit"
              name="intent"
              value="createUploadToken"
              className="button button-primary"
              disabled={busy}
            >
              Create upload token
            </button>
          </Form>
        </>
      )}
    </Section>
  );
}
