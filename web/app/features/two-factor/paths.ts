/** The enrolment page; the account page links here. */
export const TWO_FACTOR_PATH = '/account/two-factor';
