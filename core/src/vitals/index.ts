export { VITAL_COLUMNS, VITAL_THRESHOLDS } from './thresholds';
export { MAX_VITALS_PAGES, summarizeVitals, summarizeVitalsByUrl } from './summarize-vitals';
export type { PageVitals, VitalsSummary } from './summarize-vitals';
export {
  METRIC_STATS_SQL,
  resolveVitalsQuery,
  VITALS_DEFAULT_DAYS,
  VITALS_MAX_DAYS,
  vitalsWhere,
} from './vitals-query';
export type { VitalsFilterInput, VitalsQuery, VitalStats } from './vitals-query';
export { MAX_VITALS_BUCKETS, vitalsSeries, VITALS_INTERVAL_SECONDS } from './vitals-series';
export type { VitalsBucket, VitalsInterval } from './vitals-series';
