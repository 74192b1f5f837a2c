import { graphql } from '../../graphql';

// Fragments name what each component reads, so its props are the generated fragment type.
graphql(`
  fragment StackFrameFields on Frame {
    filename
    function
    lineno
    colno
    inApp
    minified {
      filename
      function
      lineno
      colno
    }
    context {
      pre
      line
      post
    }
    vars {
      name
      value
    }
  }
`);

graphql(`
  fragment EventDetailFields on Event {
    id
    eventId
    message
    logMessage
    type
    level
    handled
    environment
    release
    url
    timestamp
    user
    tags {
      key
      value
    }
    context
    sdk {
      name
      version
    }
    fingerprint
    # The thrown error first (its frames are the event's), then its causes.
    exceptions {
      type
      value
      frames {
        ...StackFrameFields
      }
    }
    breadcrumbs {
      timestamp
      category
      message
      level
      data
    }
    request {
      method
      url
      queryString
      headers {
        name
        value
      }
      data
    }
    componentStack
    navigation {
      oldest
      older
      newer
      latest
    }
  }
`);

// The stored event as JSON, for the raw view and its download (routes/…events.$file.tsx).
export const EVENT_JSON_QUERY = graphql(`
  query EventJson($issueId: ID!, $eventId: ID!) {
    issue(id: $issueId) {
      id
      projectId
      event(id: $eventId) {
        json
      }
    }
  }
`);

// Everything the page shows in one request (one round trip per render). The picked event
// (`?event=`) replaces the latest one, so only one event's frames are ever fetched.
export const ISSUE_QUERY = graphql(`
  query IssueDetail(
    $id: ID!
    $eventsFirst: Int!
    $eventsAfter: String
    $range: SeriesRange!
    $eventId: ID!
    $picked: Boolean!
    $activityFirst: Int!
    $projectId: ID!
  ) {
    issue(id: $id) {
      id
      projectId
      title
      type
      culprit
      status
      level
      isRegression
      eventCount
      userCount
      firstSeen
      lastSeen
      resolvedAt
      snoozedUntil
      snooze {
        kind
        until
        minutes
        forEvents
        forUsers
        remaining
      }
      discarded
      discardedAt
      mergedIssueCount
      alertsMutedUntil
      assignee {
        id
        email
      }
      activity(first: $activityFirst) {
        id
        kind
        actor {
          id
          email
        }
        createdAt
        message
        comment {
          id
          body
          createdAt
          updatedAt
          editable
        }
      }
      resolvedInRelease {
        version
        environment
        deployedAt
      }
      releases {
        version
        environment
        firstSeen
        lastSeen
        eventCount
      }
      suspectCommits {
        release
        files
        commit {
          id
          repository
          authorName
          authorEmail
          message
          timestamp
        }
      }
      tags {
        key
        count
        values {
          value
          count
        }
      }
      series: eventSeries(range: $range) {
        ts
        count
      }
      events(first: $eventsFirst, after: $eventsAfter) {
        pageInfo {
          hasNextPage
          endCursor
        }
        nodes {
          id
          eventId
          message
          environment
          release
          timestamp
          user
        }
      }
      latestEvent @skip(if: $picked) {
        ...EventDetailFields
      }
      # By its UUID within this issue: another issue's event answers null.
      event(id: $eventId) @include(if: $picked) {
        issueId
        ...EventDetailFields
      }
      feedback {
        id
        message
        email
        name
        url
        receivedAt
      }
    }
    # The assignee picker's choices: the members of the project's organization.
    project(id: $projectId) {
      id
      traceUrlTemplate
      members {
        userId
        email
      }
    }
  }
`);

// The same documents as the issue list's row actions: one operation name, one shape.
export const RESOLVE_ISSUE = graphql(`
  mutation ResolveIssue($id: ID!) {
    resolveIssue(id: $id) {
      id
    }
  }
`);

export const REOPEN_ISSUE = graphql(`
  mutation ReopenIssue($id: ID!) {
    reopenIssue(id: $id) {
      id
    }
  }
`);

export const SNOOZE_ISSUE = graphql(`
  mutation SnoozeIssue($id: ID!, $until: String, $minutes: Int, $forEvents: Int, $forUsers: Int) {
    snoozeIssue(id: $id, until: $until, minutes: $minutes, forEvents: $forEvents, forUsers: $forUsers) {
      id
    }
  }
`);

export const UNMERGE_ISSUE = graphql(`
  mutation UnmergeIssue($id: ID!) {
    unmergeIssue(id: $id) {
      id
      title
    }
  }
`);

export const DISCARD_ISSUE = graphql(`
  mutation DiscardIssue($id: ID!, $discard: Boolean!) {
    discardIssue(id: $id, discard: $discard) {
      id
      discarded
    }
  }
`);

export const ASSIGN_ISSUE = graphql(`
  mutation AssignIssue($id: ID!, $userId: ID) {
    assignIssue(id: $id, userId: $userId) {
      id
    }
  }
`);

export const ADD_COMMENT = graphql(`
  mutation AddComment($issueId: ID!, $body: String!) {
    addComment(issueId: $issueId, body: $body) {
      id
    }
  }
`);

export const UPDATE_COMMENT = graphql(`
  mutation UpdateComment($id: ID!, $body: String!) {
    updateComment(id: $id, body: $body) {
      id
    }
  }
`);

export const DELETE_COMMENT = graphql(`
  mutation DeleteComment($id: ID!) {
    deleteComment(id: $id)
  }
`);
