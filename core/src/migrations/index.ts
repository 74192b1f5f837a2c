import { Initial1763769600000 } from './1763769600000-initial';
import { LogsVitalsFeedback1795315200000 } from './1795315200000-logs-vitals-feedback';
import { WorkerThroughput1795400000000 } from './1795400000000-worker-throughput';
import { ReleasesAlerts1795500000000 } from './1795500000000-releases-alerts';
import { Billing1795600000000 } from './1795600000000-billing';
import { Accounts1795700000000 } from './1795700000000-accounts';
import { Retention1795800000000 } from './1795800000000-retention';
import { Usage1795900000000 } from './1795900000000-usage';
import { UsageMeters1795950000000 } from './1795950000000-usage-meters';
import { ReadApiIndexes1796050000000 } from './1796050000000-read-api-indexes';
import { UsageWarnings1796100000000 } from './1796100000000-usage-warnings';
import { IssueQueries1796150000000 } from './1796150000000-issue-queries';
import { DeadLetters1796200000000 } from './1796200000000-dead-letters';
import { ProjectPrivacy1796250000000 } from './1796250000000-project-privacy';
import { ProjectNumbers1796300000000 } from './1796300000000-project-numbers';
import { IssueAssignee1796350000000 } from './1796350000000-issue-assignee';
import { IssueActivity1796400000000 } from './1796400000000-issue-activity';
import { GroupingControl1796410000000 } from './1796410000000-grouping-control';
import { IssueSearch1796420000000 } from './1796420000000-issue-search';
import { AlertRuleConditions1796440000000 } from './1796440000000-alert-rule-conditions';
import { AlertDeliveryLog1796445000000 } from './1796445000000-alert-delivery-log';
import { PartitionedTables1796500000000 } from './1796500000000-partitioned-tables';
import { DiscardedEventLedger1797000000000 } from './1797000000000-discarded-event-ledger';
import { IssueSearchStatistics1797100000000 } from './1797100000000-issue-search-statistics';
import { VitalsPiecesAndTagCase1797330000000 } from './1797330000000-vitals-pieces-and-tag-case';
import { GroupingHints1797250000000 } from './1797250000000-grouping-hints';
import { EventEvidence1797290000000 } from './1797290000000-event-evidence';
import { ReleaseCommits1797300000000 } from './1797300000000-release-commits';
import { ArtifactBundles1797310000000 } from './1797310000000-artifact-bundles';
import { ReleaseSessions1797320000000 } from './1797320000000-release-sessions';
import { EventLogMessage1797340000000 } from './1797340000000-event-log-message';
import { FeedbackNameAndUrl1797341000000 } from './1797341000000-feedback-name-and-url';
import { InstanceAdmin1797350000000 } from './1797350000000-instance-admin';
import { EmailChanges1797360000000 } from './1797360000000-email-changes';
import { InboundFilters1797370000000 } from './1797370000000-inbound-filters';
import { SingleSignOn1797380000000 } from './1797380000000-single-sign-on';
import { TwoFactorResetThrottle1797390000000 } from './1797390000000-two-factor-reset-throttle';
import { AuditLog1797400000000 } from './1797400000000-audit-log';
import { Monitors1797410000000 } from './1797410000000-monitors';
import { ProjectTraceUrlTemplate1797420000000 } from './1797420000000-project-trace-url-template';
import { EmailConfirmations1797440000000 } from './1797440000000-email-confirmations';
import { StoredIdLedgers1797450000000 } from './1797450000000-stored-id-ledgers';

/** In order. Add new migrations at the end; never edit one that has shipped. */
export const MIGRATIONS = [
  Initial1763769600000,
  LogsVitalsFeedback1795315200000,
  WorkerThroughput1795400000000,
  ReleasesAlerts1795500000000,
  Billing1795600000000,
  Accounts1795700000000,
  Retention1795800000000,
  Usage1795900000000,
  UsageMeters1795950000000,
  ReadApiIndexes1796050000000,
  UsageWarnings1796100000000,
  IssueQueries1796150000000,
  DeadLetters1796200000000,
  ProjectPrivacy1796250000000,
  ProjectNumbers1796300000000,
  IssueAssignee1796350000000,
  IssueActivity1796400000000,
  GroupingControl1796410000000,
  IssueSearch1796420000000,
  AlertRuleConditions1796440000000,
  AlertDeliveryLog1796445000000,
  PartitionedTables1796500000000,
  DiscardedEventLedger1797000000000,
  IssueSearchStatistics1797100000000,
  GroupingHints1797250000000,
  EventEvidence1797290000000,
  ReleaseCommits1797300000000,
  ArtifactBundles1797310000000,
  ReleaseSessions1797320000000,
  VitalsPiecesAndTagCase1797330000000,
  EventLogMessage1797340000000,
  FeedbackNameAndUrl1797341000000,
  InstanceAdmin1797350000000,
  EmailChanges1797360000000,
  InboundFilters1797370000000,
  SingleSignOn1797380000000,
  TwoFactorResetThrottle1797390000000,
  AuditLog1797400000000,
  Monitors1797410000000,
  ProjectTraceUrlTemplate1797420000000,
  EmailConfirmations1797440000000,
  StoredIdLedgers1797450000000,
];
