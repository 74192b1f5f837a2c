import { graphql } from '../../graphql';

export const AUDIT_ORG_QUERY = graphql(`
  query AuditOrganizations {
    viewer {
      id
      organizations {
        id
        slug
        name
      }
    }
  }
`);

export const AUDIT_LOG_QUERY = graphql(`
  query AuditLog($organizationId: ID!, $first: Int!, $after: String, $filter: AuditLogFilter) {
    auditLog(organizationId: $organizationId, first: $first, after: $after, filter: $filter) {
      nodes {
        id
        action
        time
        actor {
          type
          label
          userId
          apiTokenId
          apiTokenName
          apiTokenPrefix
        }
        target {
          type
          id
          label
        }
        changes
        clientAddress
        userAgent
      }
      pageInfo {
        hasNextPage
        endCursor
      }
    }
  }
`);
