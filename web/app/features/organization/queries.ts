import { graphql } from '../../graphql';

export const ORG_BY_SLUG_QUERY = graphql(`
  query OrganizationsOfViewer {
    viewer {
      id
      twoFactorEnabled
      organizations {
        id
        slug
      }
    }
  }
`);

export const ORG_SETTINGS_QUERY = graphql(`
  query OrganizationSettings($id: ID!) {
    organization(id: $id) {
      id
      name
      slug
      plan
      requireTwoFactor
      projects {
        id
        name
      }
      usage {
        period
        periodEnd
        events {
          used
          limit
          remaining
        }
        logs {
          used
          limit
          remaining
        }
      }
    }
  }
`);

export const RENAME_ORGANIZATION = graphql(`
  mutation RenameOrganization($id: ID!, $name: String!) {
    renameOrganization(id: $id, name: $name) {
      id
      name
    }
  }
`);

export const SET_REQUIRE_TWO_FACTOR = graphql(`
  mutation SetOrganizationRequireTwoFactor($id: ID!, $required: Boolean!) {
    setOrganizationRequireTwoFactor(organizationId: $id, required: $required) {
      id
      requireTwoFactor
    }
  }
`);
