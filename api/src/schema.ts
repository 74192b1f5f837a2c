import 'reflect-metadata';
import type { GraphQLSchema } from 'graphql';
import { buildSchema } from 'type-graphql';
import { AlertResolver } from './modules/alert/alert.resolver';
import { AlertDeliveryResolver } from './modules/alert/alert-delivery.resolver';
import { AuthResolver } from './modules/auth/auth.resolver';
import { PasswordResetResolver } from './modules/auth/password-reset.resolver';
import { SignUpResolver } from './modules/auth/sign-up.resolver';
import { TwoFactorResolver } from './modules/two-factor/two-factor.resolver';
import { IssueResolver } from './modules/issue/issue.resolver';
import { IssueDetailResolver } from './modules/issue/issue-detail.resolver';
import { EventResolver, IssueEventResolver } from './modules/issue/event.resolver';
import { SavedSearchResolver } from './modules/issue/saved-search.resolver';
import { ReleaseHealthResolver } from './modules/release/release-health.resolver';
import { OrganizationResolver } from './modules/organization/organization.resolver';
import { ProjectResolver } from './modules/project/project.resolver';
import { InboundFilterResolver } from './modules/inbound-filter/inbound-filter.resolver';
import { ReleaseResolver } from './modules/release/release.resolver';
import { UnregisteredReleaseResolver } from './modules/release/unregistered-release.resolver';
import { ReleaseVersionResolver } from './modules/release/release-version.resolver';
import { ReleaseVersionPageResolver } from './modules/release/release-version-page.resolver';
import { SuspectCommitsResolver } from './modules/issue/suspect-commits.resolver';
import { BillingResolver } from './modules/billing/billing.resolver';
import { PlanResolver } from './modules/plan/plan.resolver';
import { MemberResolver } from './modules/member/member.resolver';
import { TokenResolver } from './modules/token/token.resolver';
import { UsageResolver } from './modules/usage/usage.resolver';
import { PerformanceResolver } from './modules/performance/performance.resolver';
import { LogResolver } from './modules/log/log.resolver';
import { FeedbackResolver } from './modules/feedback/feedback.resolver';
import { ActivityResolver, ProjectMembersResolver } from './modules/activity/activity.resolver';
import { AuditResolver } from './modules/audit/audit.resolver';
import { AccountResolver } from './modules/account/account.resolver';
import { PrivacyPreviewResolver } from './modules/project/privacy-preview.resolver';
import { AdminResolver, ViewerAdminResolver } from './modules/admin/admin.resolver';
import { SsoResolver } from './modules/sso/sso.resolver';
import { MonitorResolver } from './modules/monitor/monitor.resolver';
import { scopeGuard } from './auth/scope-guard';
import { secretGuard } from './auth/secret-guard';
import { twoFactorGuard } from './auth/two-factor-guard';

export const RESOLVERS = [
  AuthResolver,
  OrganizationResolver,
  ProjectResolver,
  InboundFilterResolver,
  IssueResolver,
  IssueDetailResolver,
  EventResolver,
  IssueEventResolver,
  SavedSearchResolver,
  ReleaseResolver,
  UnregisteredReleaseResolver,
  ReleaseVersionResolver,
  ReleaseVersionPageResolver,
  SuspectCommitsResolver,
  ReleaseHealthResolver,
  AlertResolver,
  AlertDeliveryResolver,
  BillingResolver,
  PlanResolver,
  MemberResolver,
  TokenResolver,
  UsageResolver,
  PerformanceResolver,
  LogResolver,
  FeedbackResolver,
  ActivityResolver,
  ProjectMembersResolver,
  AuditResolver,
  AccountResolver,
  PrivacyPreviewResolver,
  AdminResolver,
  ViewerAdminResolver,
  SsoResolver,
  PasswordResetResolver,
  SignUpResolver,
  TwoFactorResolver,
  MonitorResolver,
] as const;

let cached: Promise<GraphQLSchema> | undefined;

/** Built once per process: type-graphql's metadata is global, and building is not free. */
export function getSchema(): Promise<GraphQLSchema> {
  // scopeGuard: the one place API-token scopes are enforced, for every root field (auth/scope-policy.ts);
  // secretGuard: the one place secrets are masked, for every field (auth/secret-policy.ts).
  // twoFactorGuard: an organization's "require two-factor" (auth/two-factor-guard.ts).
  cached ??= buildSchema({
    resolvers: RESOLVERS,
    validate: true,
    globalMiddlewares: [scopeGuard, twoFactorGuard, secretGuard],
  });
  return cached;
}
