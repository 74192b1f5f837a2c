/**
 * Every audited change, done through GraphQL as a client would, each checked for exactly one
 * new audit row with the right action and actor. Shared by the per-runtime tests and the
 * schema walk (audit-log.test.ts), which fails for an admin-scope mutation this scenario does not
 * run (or that wrote no row) unless audit-policy.ts exempts it with a reason.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { authenticate, loadConfig, queryRows, type RequestOrigin } from '@tracker/core';
import { createContext } from '../src/context';
import type { IssueFixture } from './issue-fixtures';

export const ORIGIN: RequestOrigin = { clientAddress: '203.0.113.7', userAgent: 'audit-test/1.0 (scenario)' };
const PASSWORD = 'correct horse battery staple';

export interface AuditRow {
  id: string;
  organization_id: string;
  action: string;
  actor_type: string;
  actor_user_id: string | null;
  actor_api_token_id: string | null;
  actor_label: string;
  target_type: string;
  target_id: string | null;
  changes: unknown;
  client_address: string | null;
  user_agent: string | null;
}

export interface ScenarioResult {
  /** Per mutation run: the audit rows each call wrote. */
  rowsByMutation: Map<string, AuditRow[][]>;
  /** Every secret the scenario saw: none may appear in any audit row. */
  secrets: string[];
  organizationId: string;
  ownerId: string;
  ownerSession: string;
  /** A session of an admin (not owner) of the organization. */
  adminSession: string;
}

export async function runAuditScenario(f: IssueFixture): Promise<ScenarioResult> {
  // Private targets allowed: saveSsoSettings reads a discovery document from a loopback server below.
  const config = loadConfig({ TRACKER_PUBLIC_URL: 'https://tracker.example.com', TRACKER_ALLOW_PRIVATE_TARGETS: '1' });
  const rowsByMutation = new Map<string, AuditRow[][]>();
  const secrets: string[] = [PASSWORD, 'wrong password 123'];

  const lastId = async () =>
    (await queryRows<{ id: string | null }>(f.db.ds, 'SELECT max(id)::text AS id FROM audit_log'))[0].id ?? '0';
  async function gql(source: string, variables: Record<string, unknown>, token?: string) {
    const principal = token ? await authenticate(f.db.ds, token) : null;
    const response = await f.apollo.executeOperation(
      { query: source, variables },
      { contextValue: createContext({ ds: f.db.ds, config }, principal, { origin: ORIGIN }) },
    );
    return JSON.parse(JSON.stringify((response.body as { singleResult: unknown }).singleResult));
  }
  /** Runs one mutation and checks it wrote exactly one row of `action` by `actor`. */
  async function step(
    mutation: string,
    action: string,
    actor: { userId: string; apiTokenId?: string } | { system: string },
    source: string,
    variables: Record<string, unknown>,
    token?: string,
    options: { expectError?: string } = {},
  ): Promise<any> {
    const before = await lastId();
    const r = await gql(source, variables, token);
    if (options.expectError) assert.equal(r.errors?.[0]?.extensions?.code, options.expectError, JSON.stringify(r));
    else assert.equal(r.errors, undefined, `${mutation}: ${JSON.stringify(r.errors)}`);
    const rows = await queryRows<AuditRow>(
      f.db.ds,
      'SELECT *, id::text AS id FROM audit_log WHERE audit_log.id > $1::bigint ORDER BY audit_log.id',
      [before],
    );
    assert.deepEqual(
      rows.map((x) => x.action),
      [action],
      `${mutation} should write exactly one ${action} row`,
    );
    const [row] = rows;
    if ('system' in actor) assert.equal(row.actor_label, actor.system);
    else {
      assert.equal(row.actor_user_id, actor.userId, `${mutation}: actor`);
      assert.equal(row.actor_api_token_id, actor.apiTokenId ?? null, `${mutation}: actor's token`);
      assert.equal(row.actor_type, actor.apiTokenId ? 'api_token' : 'user');
      assert.equal(row.client_address, ORIGIN.clientAddress);
      assert.equal(row.user_agent, ORIGIN.userAgent);
    }
    rowsByMutation.set(mutation, [...(rowsByMutation.get(mutation) ?? []), rows]);
    return r.data;
  }

  const ownerEmail = `owner-${randomUUID().slice(0, 8)}@example.com`;
  const signed = await gql(
    `mutation($e: String!, $p: String!) { signup(email: $e, password: $p, organizationName: "Audit Co") {
       token user { id } organization { id } } }`,
    { e: ownerEmail, p: PASSWORD },
  );
  const ownerId: string = signed.data.signup.user.id;
  const organizationId: string = signed.data.signup.organization.id;
  const owner = { userId: ownerId };
  const LOGIN = `mutation($e: String!, $p: String!) { login(email: $e, password: $p) { token } }`;
  const session: string = (await step('login', 'auth.signed_in', owner, LOGIN, { e: ownerEmail, p: PASSWORD })).login
    .token;
  secrets.push(signed.data.signup.token, session);
  await step('login', 'auth.sign_in_failed', owner, LOGIN, { e: ownerEmail, p: 'wrong password 123' }, undefined, {
    expectError: 'UNAUTHENTICATED',
  });

  const created = await step(
    'createApiToken',
    'api_token.created',
    owner,
    `mutation { createApiToken(name: "ci", scopes: [ADMIN]) { token apiToken { id } } }`,
    {},
    session,
  );
  const apiToken: string = created.createApiToken.token;
  const apiTokenId: string = created.createApiToken.apiToken.id;
  secrets.push(apiToken);
  const viaToken = { userId: ownerId, apiTokenId };

  const projectId: string = (
    await step(
      'createProject',
      'project.created',
      viaToken,
      `mutation($o: ID!) { createProject(organizationId: $o, name: "Web") { id } }`,
      { o: organizationId },
      apiToken,
    )
  ).createProject.id;
  await step(
    'renameProject',
    'project.renamed',
    viaToken,
    `mutation($p: ID!) { renameProject(id: $p, name: "Web app") { id } }`,
    { p: projectId },
    apiToken,
  );
  await step(
    'updateProjectPrivacy',
    'project.privacy_changed',
    owner,
    `mutation($p: ID!) { updateProjectPrivacy(id: $p, input: { scrubIpAddresses: false, sensitiveFields: ["ssn"] }) { id } }`,
    { p: projectId },
    session,
  );
  await step(
    'updateProjectInboundFilters',
    'project.inbound_filters_changed',
    owner,
    `mutation($p: ID!) { updateProjectInboundFilters(projectId: $p, input: { localhost: true }) { projectId } }`,
    { p: projectId },
    session,
  );
  // Single sign-on settings, read from a loopback provider's discovery document; the secret stays out of the rows.
  const provider = http.createServer((req, res) => {
    const self = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    if (req.url !== '/.well-known/openid-configuration') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        issuer: self,
        authorization_endpoint: `${self}/auth`,
        token_endpoint: `${self}/token`,
        jwks_uri: `${self}/jwks`,
        code_challenge_methods_supported: ['S256'],
      }),
    );
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  try {
    const clientSecret = `sso-secret-${randomUUID()}`;
    secrets.push(clientSecret);
    await step(
      'saveSsoSettings',
      'organization.sso_settings_changed',
      owner,
      `mutation($o: ID!, $i: SsoSettingsInput!) { saveSsoSettings(organizationId: $o, input: $i) { organizationId } }`,
      {
        o: organizationId,
        i: {
          issuerUrl: `http://127.0.0.1:${(provider.address() as AddressInfo).port}`,
          clientId: 'tracker',
          clientSecret,
          emailDomains: [`audit-${randomUUID().slice(0, 8)}.example.com`],
        },
      },
      session,
    );
    await step(
      'deleteSsoSettings',
      'organization.sso_settings_changed',
      owner,
      `mutation($o: ID!) { deleteSsoSettings(organizationId: $o) }`,
      { o: organizationId },
      session,
    );
  } finally {
    await new Promise<void>((resolve) => provider.close(() => resolve()));
  }
  // Only a change is recorded (setting the value it has writes nothing): the organization requires
  // two-factor first, and the owner has it (written here; enrolment is two-factor.test.ts's), so
  // the step turns it off.
  await f.db.ds.query(`UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXP' WHERE id = $1`, [ownerId]);
  await f.db.ds.query('UPDATE organizations SET require_two_factor = true WHERE id = $1', [organizationId]);
  await step(
    'setOrganizationRequireTwoFactor',
    'organization.require_two_factor_changed',
    owner,
    `mutation($o: ID!) { setOrganizationRequireTwoFactor(organizationId: $o, required: false) { id } }`,
    { o: organizationId },
    session,
  );
  await f.db.ds.query('UPDATE users SET totp_secret = NULL WHERE id = $1', [ownerId]);
  const keyId: string = (
    await step(
      'rotateProjectKey',
      'project_key.rotated',
      owner,
      `mutation($p: ID!) { rotateProjectKey(projectId: $p) { id } }`,
      { p: projectId },
      session,
    )
  ).rotateProjectKey.id;
  const KEY = { p: projectId, k: keyId };
  await step(
    'updateProjectKey',
    'project_key.rate_limit_changed',
    owner,
    `mutation($p: ID!, $k: ID!) { updateProjectKey(projectId: $p, keyId: $k, rateLimitPerSecond: 50) { id } }`,
    KEY,
    session,
  );
  await step(
    'disableProjectKey',
    'project_key.disabled',
    owner,
    `mutation($p: ID!, $k: ID!) { disableProjectKey(projectId: $p, keyId: $k) { id } }`,
    KEY,
    session,
  );

  const upload = await step(
    'createUploadToken',
    'upload_token.created',
    viaToken,
    `mutation($p: ID!) { createUploadToken(projectId: $p, name: "deploy") { token uploadToken { id } } }`,
    { p: projectId },
    apiToken,
  );
  secrets.push(upload.createUploadToken.token);
  await step(
    'revokeUploadToken',
    'upload_token.revoked',
    viaToken,
    `mutation($p: ID!, $t: ID!) { revokeUploadToken(projectId: $p, id: $t) { id } }`,
    { p: projectId, t: upload.createUploadToken.uploadToken.id },
    apiToken,
  );

  const hookPath = `hook-${randomUUID()}`;
  const ruleId: string = (
    await step(
      'createAlertRule',
      'alert_rule.created',
      owner,
      `mutation($p: ID!, $u: String!) { createAlertRule(projectId: $p, kind: NEW_ISSUE, channel: { type: WEBHOOK, url: $u }) { id } }`,
      { p: projectId, u: `https://hooks.example.com/${hookPath}` },
      session,
    )
  ).createAlertRule.id;
  const ruleSecret = (
    await queryRows<{ secret: string }>(f.db.ds, 'SELECT secret FROM alert_rules WHERE id = $1', [ruleId])
  )[0].secret;
  secrets.push(hookPath, ruleSecret);
  const slackPath = `T0/B0/${randomUUID()}`;
  secrets.push(slackPath);
  await step(
    'updateAlertRule',
    'alert_rule.channels_changed',
    owner,
    `mutation($r: ID!, $u: String!) { updateAlertRule(id: $r, channel: { type: SLACK, url: $u }) { id } }`,
    { r: ruleId, u: `https://hooks.slack.com/services/${slackPath}` },
    session,
  );
  await step(
    'deleteAlertRule',
    'alert_rule.deleted',
    owner,
    `mutation($r: ID!) { deleteAlertRule(id: $r) }`,
    { r: ruleId },
    session,
  );

  const INVITE = `mutation($o: ID!, $e: String!, $r: MemberRole!) { inviteMember(organizationId: $o, email: $e, role: $r) { invitation { id } link } }`;
  const bobEmail = `bob-${randomUUID().slice(0, 8)}@example.com`;
  const invited = await step(
    'inviteMember',
    'member.invited',
    owner,
    INVITE,
    { o: organizationId, e: bobEmail, r: 'MEMBER' },
    session,
  );
  const bobLink: string = invited.inviteMember.link;
  const bobInvitation = /eti_[A-Za-z0-9_-]+/.exec(bobLink)![0];
  secrets.push(bobInvitation);
  // Bob joins without a check here; Erin's signupWithInvitation below is the checked one.
  const bobSession = await gql(
    `mutation($t: String!, $p: String!) { signupWithInvitation(token: $t, password: $p) { token user { id } } }`,
    { t: bobInvitation, p: PASSWORD },
  );
  const bobId: string = bobSession.data.signupWithInvitation.user.id;
  secrets.push(bobSession.data.signupWithInvitation.token);
  const carolEmail = `carol-${randomUUID().slice(0, 8)}@example.com`;
  const carolLink: string = (
    await step(
      'inviteMember',
      'member.invited',
      owner,
      INVITE,
      { o: organizationId, e: carolEmail, r: 'ADMIN' },
      session,
    )
  ).inviteMember.link;
  const carolInvitation = /eti_[A-Za-z0-9_-]+/.exec(carolLink)![0];
  secrets.push(carolInvitation);
  const carol = await gql(
    `mutation($e: String!, $p: String!) { signup(email: $e, password: $p, organizationName: "Carol's") { token user { id } } }`,
    { e: carolEmail, p: PASSWORD },
  );
  secrets.push(carol.data.signup.token);
  await step(
    'acceptInvitation',
    'member.joined',
    { userId: carol.data.signup.user.id },
    `mutation($t: String!) { acceptInvitation(token: $t) { id } }`,
    { t: carolInvitation },
    carol.data.signup.token,
  );
  const daveEmail = `dave-${randomUUID().slice(0, 8)}@example.com`;
  const dave = await step(
    'inviteMember',
    'member.invited',
    owner,
    INVITE,
    { o: organizationId, e: daveEmail, r: 'MEMBER' },
    session,
  );
  const daveInvitation = /eti_[A-Za-z0-9_-]+/.exec(dave.inviteMember.link as string)![0];
  secrets.push(daveInvitation);
  await step(
    'revokeInvitation',
    'member.invitation_revoked',
    owner,
    `mutation($i: ID!) { revokeInvitation(id: $i) { id } }`,
    { i: dave.inviteMember.invitation.id },
    session,
  );
  const erinEmail = `erin-${randomUUID().slice(0, 8)}@example.com`;
  const erin = await step(
    'inviteMember',
    'member.invited',
    owner,
    INVITE,
    { o: organizationId, e: erinEmail, r: 'MEMBER' },
    session,
  );
  const erinInvitation = /eti_[A-Za-z0-9_-]+/.exec(erin.inviteMember.link as string)![0];
  secrets.push(erinInvitation);
  await stepJoin();
  async function stepJoin() {
    const before = await lastId();
    const r = await gql(
      `mutation($t: String!, $p: String!) { signupWithInvitation(token: $t, password: $p) { token user { id } } }`,
      { t: erinInvitation, p: PASSWORD },
    );
    assert.equal(r.errors, undefined, JSON.stringify(r.errors));
    const rows = await queryRows<AuditRow>(
      f.db.ds,
      'SELECT *, id::text AS id FROM audit_log WHERE audit_log.id > $1::bigint ORDER BY audit_log.id',
      [before],
    );
    assert.deepEqual(
      rows.map((x) => [x.action, x.actor_user_id]),
      [['member.joined', r.data.signupWithInvitation.user.id]],
    );
    rowsByMutation.set('signupWithInvitation', [rows]);
    secrets.push(r.data.signupWithInvitation.token);
    return r.data.signupWithInvitation.user.id as string;
  }

  await step(
    'updateMemberRole',
    'member.role_changed',
    owner,
    `mutation($o: ID!, $u: ID!) { updateMemberRole(organizationId: $o, userId: $u, role: ADMIN) { role } }`,
    { o: organizationId, u: bobId },
    session,
  );
  await step(
    'removeMember',
    'member.removed',
    viaToken,
    `mutation($o: ID!, $u: ID!) { removeMember(organizationId: $o, userId: $u) }`,
    { o: organizationId, u: bobId },
    apiToken,
  );

  const at = new Date();
  await f.ingest(projectId, [
    { at, message: 'first audited', type: 'TypeError' },
    { at, message: 'second audited', type: 'RangeError' },
  ]);
  const issueIds = (
    await queryRows<{ id: string }>(f.db.ds, 'SELECT id FROM issues WHERE project_id = $1 ORDER BY title', [projectId])
  ).map((r) => r.id);
  assert.equal(issueIds.length, 2);
  await step(
    'discardIssue',
    'issue.discarded',
    owner,
    `mutation($i: ID!) { discardIssue(id: $i, discard: true) { id } }`,
    { i: issueIds[0] },
    session,
  );
  await step(
    'discardIssue',
    'issue.undiscarded',
    owner,
    `mutation($i: ID!) { discardIssue(id: $i, discard: false) { id } }`,
    { i: issueIds[0] },
    session,
  );
  await step(
    'deleteIssue',
    'issue.deleted',
    viaToken,
    `mutation($i: ID!) { deleteIssue(id: $i) }`,
    { i: issueIds[1] },
    apiToken,
  );

  await step(
    'deleteProject',
    'project.deleted',
    owner,
    `mutation($p: ID!) { deleteProject(id: $p) }`,
    { p: projectId },
    session,
  );
  await step(
    'revokeApiToken',
    'api_token.revoked',
    owner,
    `mutation($t: ID!) { revokeApiToken(id: $t) { id } }`,
    { t: apiTokenId },
    session,
  );
  return {
    rowsByMutation,
    secrets,
    organizationId,
    ownerId,
    ownerSession: session,
    adminSession: carol.data.signup.token,
  };
}
