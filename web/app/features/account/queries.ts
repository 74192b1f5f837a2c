import { graphql } from '../../graphql';

export const ACCOUNT_QUERY = graphql(`
  query Account {
    viewer {
      id
      email
      emailVerified
      pendingEmail
    }
    sessions {
      id
      createdAt
      expiresAt
      current
    }
  }
`);

export const CHANGE_EMAIL = graphql(`
  mutation ChangeEmail($currentPassword: String!, $newEmail: String!) {
    changeEmail(currentPassword: $currentPassword, newEmail: $newEmail) {
      changed
      pendingEmail
      user {
        email
      }
    }
  }
`);

export const CHANGE_PASSWORD = graphql(`
  mutation ChangePassword($currentPassword: String!, $newPassword: String!, $revokeApiTokens: Boolean!) {
    changePassword(currentPassword: $currentPassword, newPassword: $newPassword, revokeApiTokens: $revokeApiTokens) {
      token
    }
  }
`);

export const REVOKE_SESSION = graphql(`
  mutation RevokeSession($id: ID!) {
    revokeSession(id: $id)
  }
`);

export const REVOKE_OTHER_SESSIONS = graphql(`
  mutation RevokeOtherSessions {
    revokeOtherSessions
  }
`);

export const CONFIRM_EMAIL_CHANGE = graphql(`
  mutation ConfirmEmailChange($token: String!) {
    confirmEmailChange(token: $token) {
      email
    }
  }
`);

export const RESEND_EMAIL_CONFIRMATION = graphql(`
  mutation ResendEmailConfirmation {
    resendEmailConfirmation
  }
`);
