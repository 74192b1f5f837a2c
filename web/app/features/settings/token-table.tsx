import { Form } from '@remix-run/react';
import type { ApiTokensQuery, UploadTokensQuery } from '../../graphql/graphql';
import { visibleText } from '../../lib/visible-text';
import type { FormatTime } from './settings-section';

/** Upload tokens and API tokens share the table; only API tokens have scopes. */
type Token = UploadTokensQuery['uploadTokens'][number] | ApiTokensQuery['apiTokens'][number];

type TokenTableProps = {
  tokens: Token[];
  revokeIntent: string;
  time: FormatTime;
  busy: boolean;
  caption: string;
};

export function TokenTable(props: TokenTableProps) {
  if (props.tokens.length === 0) return <p className="muted">No tokens yet.</p>;
  return (
    <table className="data-table">
      <caption className="visually-hidden">{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Starts with</th>
          <th scope="col">Last used</th>
          <th scope="col">State</th>
        </tr>
      </thead>
      <tbody>
        {props.tokens.map((t) => (
          <tr key={t.id}>
            <th scope="row" className="break">
              {visibleText(t.name)}
              {'scopes' in t && <span className="muted"> · {t.scopes.join(', ').toLowerCase()}</span>}
            </th>
            <td className="mono">{t.prefix}…</td>
            <td>{props.time(t.lastUsedAt)}</td>
            <td>
              {t.revokedAt ? (
                <>revoked {props.time(t.revokedAt)}</>
              ) : (
                <Form method="post">
                  <input type="hidden" name="id" value={t.id} />
                  <button
                    type="submit"
                    name="intent"
                    value={props.revokeIntent}
                    className="button button-small button-danger"
                    disabled={props.busy}
                    aria-label={`Revoke ${visibleText(t.name)}`}
                  >
                    Revoke
                  </button>
                </Form>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
