export { findIssueForUser, findLatestEvents } from './find-issue';
export { listIssues, MAX_PAGE_SIZE } from './list-issues';
export type { IssuePage, ListIssuesInput } from './list-issues';
export {
  lifecycleStateOf,
  MAX_BULK_ISSUES,
  reopenIssue,
  resolveIssues,
  snoozeIssue,
  writeLifecycleState,
} from './transition-issues';
