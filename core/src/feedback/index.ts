export { findEventsByEventId, findIssuesInProjects, projectKeyOf } from './find-feedback-links';
export { listFeedback, MAX_FEEDBACK_PAGE } from './list-feedback';
export type { FeedbackPage, ListFeedbackInput } from './list-feedback';
