import type { ActionFunctionArgs } from '@remix-run/node';
import { readString, readStrings } from '../../lib/form.server';
import { mutateApi, type ApiResult } from '../../lib/graphql.server';
import { graphql } from '../../graphql';
import type { ApiScope, MemberRole } from '../../graphql/graphql';

// Every Settings form posts here with an `intent`; each maps to exactly one mutation. Ids in the
// form are checked by the API (another tenant's id answers like a missing one).

const MUTATIONS = {
  rotateKey: graphql(`
    mutation RotateProjectKey($projectId: ID!, $keepOldKeys: Boolean!) {
      rotateProjectKey(projectId: $projectId, keepOldKeys: $keepOldKeys) {
        id
      }
    }
  `),
  disableKey: graphql(`
    mutation DisableProjectKey($projectId: ID!, $keyId: ID!) {
      disableProjectKey(projectId: $projectId, keyId: $keyId) {
        id
      }
    }
  `),
  setKeyRateLimit: graphql(`
    mutation UpdateProjectKeyRateLimit($projectId: ID!, $keyId: ID!, $rateLimitPerSecond: Int) {
      updateProjectKey(projectId: $projectId, keyId: $keyId, rateLimitPerSecond: $rateLimitPerSecond) {
        id
        rateLimitPerSecond
      }
    }
  `),
  createUploadToken: graphql(`
    mutation CreateUploadToken($projectId: ID!, $name: String!) {
      createUploadToken(projectId: $projectId, name: $name) {
        token
        uploadToken {
          name
        }
      }
    }
  `),
  revokeUploadToken: graphql(`
    mutation RevokeUploadToken($projectId: ID!, $id: ID!) {
      revokeUploadToken(projectId: $projectId, id: $id) {
        id
      }
    }
  `),
  invite: graphql(`
    mutation InviteMember($organizationId: ID!, $email: String!, $role: MemberRole!) {
      inviteMember(organizationId: $organizationId, email: $email, role: $role) {
        emailSent
        link
        invitation {
          email
        }
      }
    }
  `),
  revokeInvitation: graphql(`
    mutation RevokeInvitation($id: ID!) {
      revokeInvitation(id: $id) {
        id
      }
    }
  `),
  removeMember: graphql(`
    mutation RemoveMember($organizationId: ID!, $userId: ID!) {
      removeMember(organizationId: $organizationId, userId: $userId)
    }
  `),
  createApiToken: graphql(`
    mutation CreateApiToken($name: String!, $scopes: [ApiScope!]!) {
      createApiToken(name: $name, scopes: $scopes) {
        token
        apiToken {
          name
        }
      }
    }
  `),
  setTraceLink: graphql(`
    mutation UpdateProjectTraceLink($id: ID!, $template: String) {
      updateProjectTraceLink(id: $id, template: $template) {
        id
        traceUrlTemplate
      }
    }
  `),
  revokeApiToken: graphql(`
    mutation RevokeApiToken($id: ID!) {
      revokeApiToken(id: $id) {
        id
      }
    }
  `),
} as const;

export type SettingsActionResult = {
  error: string | null;
  done: string | null;
  /** A secret the API shows once (upload or API token), or an invitation link to pass on. */
  secret: { label: string; value: string } | null;
};

const ok = (done: string, secret: SettingsActionResult['secret'] = null): SettingsActionResult => ({
  error: null,
  done,
  secret,
});

/**
 * Runs the form's `intent`. The account and organization pages pass the form they already read
 * (a request body is read once) for the intents they share with this page (tokens, members).
 */
export async function runSettingsAction(
  args: ActionFunctionArgs,
  organizationId: string,
  readForm?: FormData,
): Promise<SettingsActionResult> {
  const form = readForm ?? (await args.request.formData());
  const projectId = args.params.projectId ?? '';
  const intent = readString(form, 'intent');
  const id = readString(form, 'id');
  const failed = (result: ApiResult<unknown>): SettingsActionResult | null =>
    result.ok ? null : { error: result.error.message, done: null, secret: null };

  switch (intent) {
    case 'rotateKey': {
      const r = await mutateApi(args, MUTATIONS.rotateKey, {
        projectId,
        keepOldKeys: form.get('keepOldKeys') === 'on',
      });
      return failed(r) ?? ok('A new DSN key is in use. Update the DSN in your applications.');
    }
    case 'disableKey': {
      const r = await mutateApi(args, MUTATIONS.disableKey, { projectId, keyId: id });
      return failed(r) ?? ok('The key is disabled; ingest refuses it within a minute.');
    }
    case 'setKeyRateLimit': {
      const text = readString(form, 'rateLimitPerSecond').trim();
      // Only the shape is read here (an Int variable must be a whole number); the API checks the range.
      if (text !== '' && !/^\d{1,9}$/.test(text)) {
        return {
          error: 'Rate limit: a whole number of items per second, or empty for no limit.',
          done: null,
          secret: null,
        };
      }
      const r = await mutateApi(args, MUTATIONS.setKeyRateLimit, {
        projectId,
        keyId: id,
        rateLimitPerSecond: text === '' ? null : Number(text),
      });
      if (!r.ok) return failed(r)!;
      const limit = r.data.updateProjectKey.rateLimitPerSecond;
      return ok(
        limit === null
          ? 'The key has no rate limit of its own now.'
          : `The key is limited to ${limit.toLocaleString('en-US')} items per second.`,
      );
    }
    case 'createUploadToken': {
      const r = await mutateApi(args, MUTATIONS.createUploadToken, {
        projectId,
        name: readString(form, 'name'),
      });
      return (
        failed(r) ??
        (r.ok ? ok('Upload token created.', { label: 'Upload token', value: r.data.createUploadToken.token }) : ok(''))
      );
    }
    case 'revokeUploadToken': {
      const r = await mutateApi(args, MUTATIONS.revokeUploadToken, { projectId, id });
      return failed(r) ?? ok('Upload token revoked.');
    }
    case 'invite': {
      const r = await mutateApi(args, MUTATIONS.invite, {
        organizationId,
        email: readString(form, 'email'),
        // Not checked here: the API coerces the variable and rejects any other value with its message.
        role: (readString(form, 'role') || 'MEMBER') as MemberRole,
      });
      if (!r.ok) return failed(r)!;
      const { emailSent, link } = r.data.inviteMember;
      return emailSent || !link
        ? ok('Invitation sent by email.')
        : ok('Invitation created. Email is not configured: send this link yourself.', {
            label: 'Invitation link',
            value: link,
          });
    }
    case 'revokeInvitation': {
      const r = await mutateApi(args, MUTATIONS.revokeInvitation, { id });
      return failed(r) ?? ok('Invitation revoked.');
    }
    case 'removeMember': {
      const r = await mutateApi(args, MUTATIONS.removeMember, { organizationId, userId: id });
      return failed(r) ?? ok('Member removed.');
    }
    case 'setTraceLink': {
      const r = await mutateApi(args, MUTATIONS.setTraceLink, {
        id: projectId,
        template: readString(form, 'template'),
      });
      if (!r.ok) return failed(r)!;
      return ok(
        r.data.updateProjectTraceLink.traceUrlTemplate
          ? 'Trace ids on the issue page now link to your trace viewer.'
          : 'The trace viewer link is removed.',
      );
    }
    case 'createApiToken': {
      const scopes = readStrings(form, 'scopes', 3);
      const r = await mutateApi(args, MUTATIONS.createApiToken, {
        name: readString(form, 'name'),
        scopes: scopes as ApiScope[],
      });
      return (
        failed(r) ??
        (r.ok ? ok('API token created.', { label: 'API token', value: r.data.createApiToken.token }) : ok(''))
      );
    }
    case 'revokeApiToken': {
      const r = await mutateApi(args, MUTATIONS.revokeApiToken, { id });
      return failed(r) ?? ok('API token revoked.');
    }
    default:
      return { error: 'Unknown action.', done: null, secret: null };
  }
}
