import { AlertDelivery } from './alert-delivery.entity';
import { AlertRule } from './alert-rule.entity';
import { Event } from './event.entity';
import { Feedback } from './feedback.entity';
import { Issue } from './issue.entity';
import { IssueRelease } from './issue-release.entity';
import { LogEntry } from './log-entry.entity';
import { Membership } from './membership.entity';
import { Organization } from './organization.entity';
import { Project } from './project.entity';
import { ProjectKey } from './project-key.entity';
import { Release } from './release.entity';
import { Session } from './session.entity';
import { SourceMap } from './source-map.entity';
import { UploadToken } from './upload-token.entity';
import { User } from './user.entity';
import { VitalsReport } from './vitals-report.entity';
import { BillingAccount } from './billing-account.entity';
import { BillingLogEntry } from './billing-log-entry.entity';
import { StripeEvent } from './stripe-event.entity';
import { ApiToken } from './api-token.entity';
import { Invitation } from './invitation.entity';

export {
  AlertDelivery,
  AlertRule,
  Event,
  Feedback,
  Issue,
  IssueRelease,
  LogEntry,
  Membership,
  Organization,
  Project,
  ProjectKey,
  Release,
  Session,
  SourceMap,
  UploadToken,
  User,
  VitalsReport,
  BillingAccount,
  BillingLogEntry,
  StripeEvent,
  ApiToken,
  Invitation,
};
export { API_SCOPES, type ApiScope } from './api-token.entity';
export {
  ALERT_CHANNEL_TYPES,
  ALERT_KINDS,
  type AlertChannelType,
  type AlertFilter,
  type AlertKind,
} from './alert-rule.entity';
export type { DeliveryStatus } from './alert-delivery.entity';
export type { IssueStatus, Level } from './issue.entity';
export type { Role } from './membership.entity';
export type { PlanId } from './organization.entity';

export const ENTITIES = [
  User,
  Organization,
  Membership,
  Session,
  Project,
  ProjectKey,
  Issue,
  Event,
  LogEntry,
  VitalsReport,
  Feedback,
  Release,
  IssueRelease,
  UploadToken,
  SourceMap,
  AlertRule,
  AlertDelivery,
  BillingAccount,
  BillingLogEntry,
  StripeEvent,
  ApiToken,
  Invitation,
];
