import { graphql } from '../../graphql';

export const ISSUES_QUERY = graphql(`
  query ProjectIssues(
    $projectId: ID!
    $status: IssueStatus
    $discarded: Boolean
    $first: Int!
    $after: String
    $search: String
    $query: String
    $environment: String
    $release: String
    $sort: IssueSort!
    $assigned: IssueAssignedFilter
  ) {
    issues(
      projectId: $projectId
      status: $status
      discarded: $discarded
      first: $first
      after: $after
      search: $search
      query: $query
      environment: $environment
      release: $release
      sort: $sort
      assigned: $assigned
    ) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        title
        culprit
        level
        status
        isRegression
        eventCount
        userCount
        lastSeen
        assignee {
          id
          email
        }
        series(hours: 24) {
          ts
          count
        }
      }
    }
    all: issues(projectId: $projectId, first: 1) {
      totalCount
    }
    allDiscarded: issues(projectId: $projectId, first: 1, discarded: true) {
      totalCount
    }
    savedSearches(projectId: $projectId) {
      id
      name
      query
    }
  }
`);

export const CREATE_SAVED_SEARCH = graphql(`
  mutation CreateSavedSearch($projectId: ID!, $name: String!, $query: String!) {
    createSavedSearch(projectId: $projectId, name: $name, query: $query) {
      id
    }
  }
`);

export const DELETE_SAVED_SEARCH = graphql(`
  mutation DeleteSavedSearch($id: ID!) {
    deleteSavedSearch(id: $id)
  }
`);

export const RESOLVE_ISSUES = graphql(`
  mutation ResolveIssues($ids: [ID!]!) {
    resolveIssues(ids: $ids) {
      id
    }
  }
`);

/** Merges one issue into another (the list's "Merge selected" calls it once per other issue). */
export const MERGE_ISSUES = graphql(`
  mutation MergeIssues($sourceId: ID!, $targetId: ID!) {
    mergeIssues(sourceId: $sourceId, targetId: $targetId) {
      id
      title
    }
  }
`);
