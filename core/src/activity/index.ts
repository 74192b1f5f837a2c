export { ISSUE_ACTIVITY_KINDS, MAX_ACTIVITY_MESSAGE_CHARS, recordIssueActivities, recordIssueActivity } from './record-activity';
export type { IssueActivityInput, IssueActivityKind } from './record-activity';
