import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { ConfirmButton } from '../components/confirm-button';
import { Field, FormError } from '../components/field';
import { SecretOnce } from '../components/secret-once';
import { SetupInstructions } from '../components/setup-instructions';
import { RelativeTime } from '../components/time';
import { queryApi, tryQueryApi, type ApiResult } from '../lib/graphql.server';
import { runSettingsAction } from '../lib/settings.server';
import { visibleText } from '../lib/visible-text';
import { graphql } from '../graphql';

const PROJECT_ORG_QUERY = graphql(`
  query ProjectOrganization($id: ID!) {
    project(id: $id) {
      id
      organizationId
      dsn
    }
  }
`);
const KEYS_QUERY = graphql(`
  query ProjectKeys($projectId: ID!) {
    projectKeys(projectId: $projectId) {
      id
      publicKey
      enabled
      rateLimitPerSecond
      createdAt
      disabledAt
    }
  }
`);
const UPLOAD_TOKENS_QUERY = graphql(`
  query UploadTokens($projectId: ID!) {
    uploadTokens(projectId: $projectId) {
      id
      name
      prefix
      createdAt
      lastUsedAt
      revokedAt
    }
  }
`);
const MEMBERS_QUERY = graphql(`
  query Members($organizationId: ID!) {
    members(organizationId: $organizationId) {
      userId
      email
      role
      joinedAt
    }
  }
`);
const INVITATIONS_QUERY = graphql(`
  query Invitations($organizationId: ID!) {
    invitations(organizationId: $organizationId) {
      id
      email
      role
      createdAt
      expiresAt
    }
  }
`);
const API_TOKENS_QUERY = graphql(`
  query ApiTokens {
    apiTokens {
      id
      name
      scopes
      prefix
      createdAt
      lastUsedAt
      revokedAt
    }
  }
`);

type Token = {
  id: string;
  name: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

/** A section's data, or why the viewer cannot see it. */
function section<T>(result: ApiResult<T>): { data: T | null; reason: string | null } {
  if (result.ok) return { data: result.data, reason: null };
  return {
    data: null,
    reason: result.error.code === 'FORBIDDEN' ? 'Only owners and admins can see this.' : result.error.message,
  };
}

async function requireProject(args: LoaderFunctionArgs) {
  const { project } = await queryApi(args, PROJECT_ORG_QUERY, { id: args.params.projectId ?? '' });
  if (!project) throw data({ message: 'This project does not exist or is not yours.' }, { status: 404 });
  return project;
}

export const meta: MetaFunction = () => [{ title: 'Settings · Tracker' }];

export async function loader(args: LoaderFunctionArgs) {
  const project = await requireProject(args);
  const projectVars = { projectId: project.id };
  const orgVars = { organizationId: project.organizationId };
  const [keys, uploadTokens, members, invitations, apiTokens] = await Promise.all([
    tryQueryApi(args, KEYS_QUERY, projectVars),
    tryQueryApi(args, UPLOAD_TOKENS_QUERY, projectVars),
    tryQueryApi(args, MEMBERS_QUERY, orgVars),
    tryQueryApi(args, INVITATIONS_QUERY, orgVars),
    tryQueryApi(args, API_TOKENS_QUERY),
  ]);
  return {
    dsn: project.dsn,
    keys: section(keys),
    uploadTokens: section(uploadTokens),
    members: section(members),
    invitations: section(invitations),
    apiTokens: section(apiTokens),
    now: new Date().toISOString(),
  };
}

export async function action(args: ActionFunctionArgs) {
  const project = await requireProject(args);
  const result = await runSettingsAction(args, project.organizationId);
  return data(result, { status: result.error ? 400 : 200 });
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

export default function SettingsPage() {
  const { dsn, keys, uploadTokens, members, invitations, apiTokens, now } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const time = (iso: string | null) => (iso ? <RelativeTime iso={iso} now={now} /> : '—');
  return (
    <div className="stack">
      {(result?.error || result?.done || result?.secret) && (
        <div aria-live="polite">
          <FormError message={result.error} />
          {result.done && (
            <p className="notice" role="status">
              {result.done}
            </p>
          )}
          {result.secret && <SecretOnce label={result.secret.label} value={result.secret.value} />}
        </div>
      )}

      <Section id="dsn-heading" title="DSN and keys">
        <SetupInstructions dsn={dsn} dsnOnly />
        {keys.reason ? (
          <p className="muted">{keys.reason}</p>
        ) : (
          <>
            <h3>Keys</h3>
            <table className="data-table">
              <caption className="visually-hidden">DSN keys, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Public key</th>
                  <th scope="col">State</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.data?.projectKeys.map((k) => (
                  <tr key={k.id}>
                    <th scope="row" className="mono break">
                      {k.publicKey}
                    </th>
                    <td>{k.enabled ? 'enabled' : <>disabled {time(k.disabledAt)}</>}</td>
                    <td>{time(k.createdAt)}</td>
                    <td>
                      {k.enabled && (
                        <Form method="post">
                          <input type="hidden" name="id" value={k.id} />
                          <ConfirmButton
                            intent="disableKey"
                            label="Disable"
                            confirmLabel="Disable this key"
                            name={k.publicKey}
                            disabled={busy}
                          />
                        </Form>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Form method="post" className="checkbox-row">
              <button type="submit" name="intent" value="rotateKey" className="button" disabled={busy}>
                Rotate key
              </button>
              <label>
                <input type="checkbox" name="keepOldKeys" /> Keep the old keys working (for a gradual roll-out)
              </label>
            </Form>
          </>
        )}
      </Section>

      <Section id="upload-heading" title="Upload tokens">
        <p className="muted">For CI: upload source maps and register releases. The secret is shown once.</p>
        {uploadTokens.reason ? (
          <p className="muted">{uploadTokens.reason}</p>
        ) : (
          <>
            <TokenTable
              tokens={uploadTokens.data?.uploadTokens ?? []}
              revokeIntent="revokeUploadToken"
              time={time}
              busy={busy}
              caption="Upload tokens"
            />
            <Form method="post" className="form form-inline">
              <Field label="Token name" name="name" required placeholder="CI" autoComplete="off" />
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

      <Section id="members-heading" title="Members and invitations">
        {members.reason ? (
          <p className="muted">{members.reason}</p>
        ) : (
          <table className="data-table">
            <caption className="visually-hidden">Members of the organization</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data?.members.map((m) => (
                <tr key={m.userId}>
                  <th scope="row" className="break">
                    {visibleText(m.email)}
                  </th>
                  <td>{m.role.toLowerCase()}</td>
                  <td>{time(m.joinedAt)}</td>
                  <td>
                    <Form method="post">
                      <input type="hidden" name="id" value={m.userId} />
                      <ConfirmButton
                        intent="removeMember"
                        label="Remove"
                        confirmLabel="Remove from the organization"
                        name={visibleText(m.email)}
                        disabled={busy}
                      />
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {invitations.reason ? null : (
          <>
            <h3>Pending invitations</h3>
            {invitations.data?.invitations.length ? (
              <ul className="plain-list">
                {invitations.data.invitations.map((i) => (
                  <li key={i.id}>
                    {visibleText(i.email)} ({i.role.toLowerCase()}), expires {time(i.expiresAt)}{' '}
                    <Form method="post" className="inline-form">
                      <input type="hidden" name="id" value={i.id} />
                      <button
                        type="submit"
                        name="intent"
                        value="revokeInvitation"
                        className="button button-small"
                        disabled={busy}
                        aria-label={`Revoke the invitation of ${visibleText(i.email)}`}
                      >
                        Revoke
                      </button>
                    </Form>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">None.</p>
            )}
            <Form method="post" className="form form-inline">
              <Field label="Email to invite" name="email" type="email" required autoComplete="off" />
              <div className="field">
                <label htmlFor="invite-role">Role</label>
                <select id="invite-role" name="role" defaultValue="MEMBER">
                  <option value="MEMBER">Member (triage)</option>
                  <option value="ADMIN">Admin (members, projects, keys, alerts)</option>
                  <option value="OWNER">Owner (everything, billing)</option>
                </select>
              </div>
              <button type="submit" name="intent" value="invite" className="button button-primary" disabled={busy}>
                Invite
              </button>
            </Form>
          </>
        )}
      </Section>

      <Section id="api-tokens-heading" title="Your API tokens">
        <p className="muted">Personal tokens for integrations: they act as you, within their scopes.</p>
        {apiTokens.reason ? (
          <p className="muted">{apiTokens.reason}</p>
        ) : (
          <>
            <TokenTable
              tokens={apiTokens.data?.apiTokens ?? []}
              revokeIntent="revokeApiToken"
              time={time}
              busy={busy}
              caption="API tokens"
            />
            <Form method="post" className="form form-inline">
              <Field label="Token name" name="name" required placeholder="Grafana" autoComplete="off" />
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
    </div>
  );
}

function TokenTable(props: {
  tokens: (Token & { scopes?: string[] })[];
  revokeIntent: string;
  time: (iso: string | null) => ReactNode;
  busy: boolean;
  caption: string;
}) {
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
              {t.scopes && <span className="muted"> · {t.scopes.join(', ').toLowerCase()}</span>}
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
