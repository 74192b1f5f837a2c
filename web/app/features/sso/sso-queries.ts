import { graphql } from '../../graphql';

export const SSO_PAGE_QUERY = graphql(`
  query SsoPage {
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

export const SSO_SETTINGS_QUERY = graphql(`
  query SsoSettings($organizationId: ID!) {
    ssoSettings(organizationId: $organizationId) {
      issuer
      clientId
      clientSecretHint
      emailDomains
      defaultRole
      requireSso
      callbackUrl
      updatedAt
    }
  }
`);

export const SAVE_SSO_MUTATION = graphql(`
  mutation SaveSsoSettings($organizationId: ID!, $input: SsoSettingsInput!) {
    saveSsoSettings(organizationId: $organizationId, input: $input) {
      issuer
    }
  }
`);

export const DELETE_SSO_MUTATION = graphql(`
  mutation DeleteSsoSettings($organizationId: ID!) {
    deleteSsoSettings(organizationId: $organizationId)
  }
`);
