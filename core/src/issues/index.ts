export { deleteIssue } from './delete-issue';
export { findEvent, findIssueEvent } from './find-event';
export { findEventNeighbours, type EventNeighbours } from './find-event-neighbours';
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
export {
  findIssueEnvironments,
  findIssueReleases,
  findTagBreakdown,
  TAG_SAMPLE_EVENTS,
  TOP_TAG_VALUES,
  type IssueReleaseSeen,
} from './issue-facets';
export type { TagBreakdown } from './issue-facets';
export { assigneeSql, listIssues, MAX_PAGE_SIZE, MAX_SEARCH_CHARS } from './list-issues';
export type { AssigneeFilter, IssuePage, IssueSort, ListIssuesInput } from './list-issues';
export { assignIssue, findUserRefs, renderAssignmentEmail } from './assign-issue';
export type { AssignmentEmail, AssignmentResult } from './assign-issue';
export { discardIssue } from './discard-issue';
export { mergeIssues } from './merge-issues';
export { unmergeIssue } from './unmerge-issue';
export { countIssueMerges } from './count-issue-merges';
export {
  lifecycleStateOf,
  MAX_BULK_ISSUES,
  reopenIssue,
  resolveIssues,
  snoozeIssue,
  writeLifecycleState,
} from './transition-issues';
export * from './query';
export {
  createSavedSearch,
  deleteSavedSearch,
  listSavedSearches,
  MAX_SAVED_SEARCHES,
  MAX_SAVED_SEARCH_NAME_CHARS,
} from './saved-searches';
export type { SavedSearch } from './saved-searches';
