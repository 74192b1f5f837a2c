export {
  ISSUE_ACTIVITY_KINDS,
  MAX_ACTIVITY_MESSAGE_CHARS,
  recordIssueActivities,
  recordIssueActivity,
} from './record-activity';
export type { IssueActivityInput, IssueActivityKind } from './record-activity';
export { addComment, deleteComment, MAX_COMMENT_CHARS, updateComment } from './comments';
export type { IssueComment } from './comments';
export { DEFAULT_ACTIVITY_PAGE, listIssueActivity, MAX_ACTIVITY_PAGE } from './list-activity';
export type { IssueActivityEntry } from './list-activity';
