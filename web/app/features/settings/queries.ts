import { graphql } from '../../graphql';

// Each section of the page is its own query: a plain member's FORBIDDEN on one (keys, members)
// leaves the others shown.
export const PROJECT_ORG_QUERY = graphql(`
  query ProjectOrganization($id: ID!) {
    project(id: $id) {
      id
      organizationId
      dsn
      traceUrlTemplate
    }
  }
`);
export const KEYS_QUERY = graphql(`
  query ProjectKeys($projectId: ID!) {
    projectKeys(projectId: $projectId) {
      id
      publicKey
      enabled
      rateLimitPerSecond
      createdAt
      disabledAt
    }
  }
`);
export const UPLOAD_TOKENS_QUERY = graphql(`
  query UploadTokens($projectId: ID!) {
    uploadTokens(projectId: $projectId) {
      id
      name
      prefix
      createdAt
      lastUsedAt
      revokedAt
    }
  }
`);
export const MEMBERS_QUERY = graphql(`
  query Members($organizationId: ID!) {
    members(organizationId: $organizationId) {
      userId
      email
      role
      joinedAt
      emailVerified
      twoFactorEnabled
    }
  }
`);
export const INVITATIONS_QUERY = graphql(`
  query Invitations($organizationId: ID!) {
    invitations(organizationId: $organizationId) {
      id
      email
      role
      createdAt
      expiresAt
    }
  }
`);
export const API_TOKENS_QUERY = graphql(`
  query ApiTokens {
    apiTokens {
      id
      name
      scopes
      prefix
      createdAt
      lastUsedAt
      revokedAt
    }
  }
`);
