import { graphql } from '../../graphql';

// The release detail page, in the Releases page's two steps: the plan first (with everything a
// plan without release health shows), then the health figures only where the plan has them.

graphql(`
  fragment ReleaseHealthFields on ReleaseHealth {
    issuesIntroduced
    regressions
    basis
    crashFreeSessions
    sessions {
      started
    }
    usersSeen
    crashedUsers
    crashFreeUsers
    windowEvents
    enoughData
    eventsPerHour
    previousVersion
    previousIssuesIntroduced
    previousRegressions
    previousCrashFreeUsers
    previousEventsPerHour
    eventsPerHourRatio
  }
`);

graphql(`
  fragment ReleaseIssueFields on ReleaseIssueList {
    totalCount
    nodes {
      environments
      at
      issue {
        id
        title
        culprit
        level
        status
        isRegression
        eventCount
        userCount
        lastSeen
      }
    }
  }
`);

/** Issues shown per list; the list's total says when there are more. */
export const RELEASE_ISSUES_SHOWN = 25;
/** Source maps shown; the total (count and bytes) covers them all. */
export const RELEASE_FILES_SHOWN = 100;

export const RELEASE_DETAIL_QUERY = graphql(`
  query ReleaseDetail($projectId: ID!, $version: String!, $issues: Int!, $files: Int!) {
    project(id: $projectId) {
      id
      organizationId
    }
    viewer {
      id
      organizations {
        id
        plan
      }
    }
    plans {
      ...PlanFields
    }
    release(projectId: $projectId, version: $version) {
      version
      dateCreated
      dateReleased
      deploys {
        id
        environment
        deployedAt
      }
      newIssues(first: $issues) {
        ...ReleaseIssueFields
      }
      regressedIssues(first: $issues) {
        ...ReleaseIssueFields
      }
      resolvedIssues(first: $issues) {
        ...ReleaseIssueFields
      }
      sourceMaps(first: $files) {
        totalCount
        totalBytes
        nodes {
          filename
          sizeBytes
          uploadedAt
        }
      }
      artifactBundles(first: 25) {
        checksum
        dist
        fileCount
        assembledAt
      }
      commits(first: 100) {
        id
        repository
        authorName
        authorEmail
        message
        timestamp
      }
    }
  }
`);

export const RELEASE_DETAIL_HEALTH_QUERY = graphql(`
  query ReleaseDetailHealth($projectId: ID!, $version: String!) {
    release(projectId: $projectId, version: $version) {
      deploys {
        id
        health {
          ...ReleaseHealthFields
        }
      }
    }
  }
`);
