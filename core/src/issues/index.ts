export { deleteIssue } from './delete-issue';
export { findEvent } from './find-event';
export { findIssue, findLatestEvents } from './find-issue';
export { issueFromRow } from './issue-row';
export type { IssueRow } from './issue-row';
export {
  findEventSeries,
  findHourlySeries,
  listIssueEvents,
  MAX_EVENTS_PAGE,
  MAX_SERIES_HOURS,
  SERIES_RANGES,
  type SeriesRange,
} from './issue-events';
export type { EventPage, SeriesPoint } from './issue-events';
export { findIssueEnvironments, findTagBreakdown, TAG_SAMPLE_EVENTS, TOP_TAG_VALUES } from './issue-facets';
export type { TagBreakdown } from './issue-facets';
export { listIssues, MAX_PAGE_SIZE, MAX_SEARCH_CHARS } from './list-issues';
export type { IssuePage, IssueSort, ListIssuesInput } from './list-issues';
export { mergeIssues } from './merge-issues';
export {
  lifecycleStateOf,
  MAX_BULK_ISSUES,
  reopenIssue,
  resolveIssues,
  snoozeIssue,
  writeLifecycleState,
} from './transition-issues';
