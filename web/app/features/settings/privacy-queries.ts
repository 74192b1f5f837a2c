import { graphql } from '../../graphql';

export const PRIVACY_QUERY = graphql(`
  query ProjectPrivacy($projectId: ID!) {
    project(id: $projectId) {
      id
      privacy {
        scrubDefaults
        sensitiveFields
        scrubIpAddresses
      }
    }
    previewScrubbing(projectId: $projectId) {
      sample
      event
    }
  }
`);

export const PREVIEW_SCRUBBING = graphql(`
  query PreviewScrubbing($projectId: ID!, $sample: String, $draft: ProjectPrivacyInput) {
    previewScrubbing(projectId: $projectId, sample: $sample, draft: $draft) {
      sample
      event
    }
  }
`);

export const UPDATE_PRIVACY = graphql(`
  mutation UpdateProjectPrivacy($id: ID!, $input: ProjectPrivacyInput!) {
    updateProjectPrivacy(id: $id, input: $input) {
      id
      privacy {
        scrubDefaults
        sensitiveFields
        scrubIpAddresses
      }
    }
  }
`);
