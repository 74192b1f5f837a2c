import { graphql } from '../../graphql';

export const TWO_FACTOR_QUERY = graphql(`
  query TwoFactorStatus {
    twoFactor {
      enabled
      enabledAt
      recoveryCodesLeft
    }
    viewer {
      email
      twoFactorEnrolmentRequired
    }
  }
`);

export const START_ENROLMENT = graphql(`
  mutation StartTwoFactorEnrolment {
    startTwoFactorEnrolment {
      secret
      qrCodeDataUrl
    }
  }
`);

export const CONFIRM_ENROLMENT = graphql(`
  mutation ConfirmTwoFactor($code: String!) {
    confirmTwoFactor(code: $code)
  }
`);

export const DISABLE = graphql(`
  mutation DisableTwoFactor($code: String!) {
    disableTwoFactor(code: $code)
  }
`);

export const REGENERATE = graphql(`
  mutation RegenerateRecoveryCodes($code: String!) {
    regenerateRecoveryCodes(code: $code)
  }
`);
