import { graphql } from '../../graphql';

export const ADMIN_ORGANIZATIONS = graphql(`
  query AdminOrganizations($after: String) {
    adminOrganizations(first: 50, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        name
        slug
        plan
        memberCount
        projectCount
        liveSubscription
        events {
          used
          limit
        }
        logs {
          used
          limit
        }
      }
    }
    plans {
      id
      name
    }
  }
`);

export const ADMIN_SET_PLAN = graphql(`
  mutation AdminSetOrganizationPlan($organizationId: ID!, $plan: String!, $force: Boolean) {
    adminSetOrganizationPlan(organizationId: $organizationId, plan: $plan, force: $force) {
      planBefore
      overrodeSubscription
      organization {
        slug
        plan
      }
    }
  }
`);

export const ADMIN_DEAD_LETTERS = graphql(`
  query AdminDeadLetters {
    adminDeadLetters(first: 100) {
      totalCount
      nodes {
        id
        topic
        kind
        attempts
        firstFailedAt
        lastFailedAt
        reason
      }
    }
  }
`);

export const ADMIN_REPLAY = graphql(`
  mutation AdminReplayDeadLetters($ids: [ID!], $all: Boolean) {
    adminReplayDeadLetters(ids: $ids, all: $all)
  }
`);

export const ADMIN_PURGE = graphql(`
  mutation AdminPurgeDeadLetters($olderThanDays: Int!) {
    adminPurgeDeadLetters(olderThanDays: $olderThanDays)
  }
`);

export const ADMIN_INSTANCE = graphql(`
  query AdminInstance {
    adminInstance {
      version
      nodeVersion
      databaseKind
      databaseVersion
      migrations {
        name
        timestamp
      }
      pendingMigrations
      deadLetterCount
      smtp {
        configured
        host
        port
        secure
        from
      }
      stripe {
        configured
        secretKey
        webhookSecret
        pricePro
        priceBusiness
        mode
      }
    }
  }
`);

export const ADMIN_TEST_EMAIL = graphql(`
  mutation AdminSendTestEmail {
    adminSendTestEmail {
      to
      response
    }
  }
`);
