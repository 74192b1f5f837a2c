import { Initial1763769600000 } from './1763769600000-initial';
import { LogsVitalsFeedback1795315200000 } from './1795315200000-logs-vitals-feedback';
import { WorkerThroughput1795400000000 } from './1795400000000-worker-throughput';
import { ReleasesAlerts1795500000000 } from './1795500000000-releases-alerts';
import { Billing1795600000000 } from './1795600000000-billing';
import { Accounts1795700000000 } from './1795700000000-accounts';
import { Retention1795800000000 } from './1795800000000-retention';
import { Usage1795900000000 } from './1795900000000-usage';
import { IssueQueries1796100000000 } from './1796100000000-issue-queries';

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
  IssueQueries1796100000000,
];
