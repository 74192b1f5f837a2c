import type { IssueDetailQuery } from '../../graphql/graphql';

/** The issue as the page's loader hands it on: without its events, which come separately. */
export type IssueData = Omit<NonNullable<IssueDetailQuery['issue']>, 'latestEvent' | 'events'>;
