/** The reset email: the link, how long it works, and what to do when it was not you. */
export function renderPasswordResetEmail(input: { link: string; expiresAt: Date }) {
  const expires = input.expiresAt
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  const escape = (s: string) =>
    s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
  const subject = 'Reset your Tracker password';
  const text = [
    'Someone (hopefully you) asked to reset the password of the Tracker account of this address.',
    '',
    `Choose a new password: ${input.link}`,
    '',
    `The link works once and expires on ${expires}. Using it signs out every session of the account.`,
    'If you did not ask for it, ignore this email: your password stays as it is.',
  ].join('\n');
  const html = [
    '<p>Someone (hopefully you) asked to reset the password of the Tracker account of this address.</p>',
    `<p><a href="${escape(input.link)}">Choose a new password</a></p>`,
    `<p>The link works once and expires on ${escape(expires)}. Using it signs out every session of the account.</p>`,
    '<p>If you did not ask for it, ignore this email: your password stays as it is.</p>',
  ].join('\n');
  return { subject, text, html };
}
