import { graphql } from '../../graphql';

// The Alerts page's documents (web/app/routes/_app.projects.$projectId.alerts.tsx).

export const ALERT_RULES_QUERY = graphql(`
  query AlertRules($projectId: ID!, $deliveries: Int!) {
    alertRules(projectId: $projectId) {
      id
      kind
      enabled
      createdAt
      secret
      masked
      threshold
      windowMinutes
      query
      actionIntervalMinutes
      digestMinutes
      mutedUntil
      filter {
        environments
        minLevel
        tags {
          key
          value
        }
        release
        assigned
      }
      channel {
        type
        url
        email
      }
      deliveries(first: $deliveries) {
        id
        kind
        status
        attempts
        lastError
        lastStatus
        createdAt
        deliveredAt
        nextAttemptAt
        response
        test
      }
      failing
      recentFailures
    }
    alertChannels {
      type
      name
      target
      available
      unavailableReason
      help
    }
  }
`);

export const CREATE_RULE = graphql(`
  mutation CreateAlertRule(
    $projectId: ID!
    $kind: AlertKind!
    $channel: AlertChannelInput!
    $threshold: Int
    $windowMinutes: Int
    $query: String
    $filter: AlertFilterInput
    $actionIntervalMinutes: Int
    $digestMinutes: Int
  ) {
    createAlertRule(
      projectId: $projectId
      kind: $kind
      channel: $channel
      threshold: $threshold
      windowMinutes: $windowMinutes
      query: $query
      filter: $filter
      actionIntervalMinutes: $actionIntervalMinutes
      digestMinutes: $digestMinutes
    ) {
      id
    }
  }
`);
export const UPDATE_RULE_SETTINGS = graphql(`
  mutation UpdateAlertRuleSettings(
    $id: ID!
    $kind: AlertKind!
    $threshold: Int
    $windowMinutes: Int
    $query: String
    $filter: AlertFilterInput
    $actionIntervalMinutes: Int
    $digestMinutes: Int
  ) {
    updateAlertRule(
      id: $id
      kind: $kind
      threshold: $threshold
      windowMinutes: $windowMinutes
      query: $query
      filter: $filter
      actionIntervalMinutes: $actionIntervalMinutes
      digestMinutes: $digestMinutes
    ) {
      id
    }
  }
`);
export const MUTE_RULE = graphql(`
  mutation MuteAlertRule($id: ID!, $until: String) {
    muteAlertRule(id: $id, until: $until) {
      id
      mutedUntil
    }
  }
`);
export const UPDATE_RULE = graphql(`
  mutation UpdateAlertRule($id: ID!, $enabled: Boolean) {
    updateAlertRule(id: $id, enabled: $enabled) {
      id
    }
  }
`);
export const TEST_RULE = graphql(`
  mutation TestAlertRule($id: ID!) {
    testAlertRule(id: $id) {
      id
      kind
      status
      attempts
      lastError
      lastStatus
      response
      test
      createdAt
      deliveredAt
      nextAttemptAt
    }
  }
`);
export const DELETE_RULE = graphql(`
  mutation DeleteAlertRule($id: ID!) {
    deleteAlertRule(id: $id)
  }
`);
