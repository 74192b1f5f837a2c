/** The emails of a sign-up with mail (decision 066): a confirmation link, or "this address has an account". */

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const utc = (d: Date) =>
  d
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');

export interface AccountEmail {
  subject: string;
  text: string;
  html: string;
}

function compose(
  subject: string,
  paragraphs: { text: string; link?: { label: string; href: string } }[],
): AccountEmail {
  const text = paragraphs.map((p) => (p.link ? `${p.link.label}: ${p.link.href}` : p.text)).join('\n\n');
  const html = paragraphs
    .map((p) =>
      p.link ? `<p><a href="${escape(p.link.href)}">${escape(p.link.label)}</a></p>` : `<p>${escape(p.text)}</p>`,
    )
    .join('\n');
  return { subject, text, html };
}

/** The link that confirms a new account's address (and creates the organization it named). */
export function renderEmailConfirmationEmail(input: { link: string; expiresAt: Date }): AccountEmail {
  return compose('Confirm your email address for Tracker', [
    { text: 'Someone (hopefully you) created a Tracker account with this email address.' },
    { text: '', link: { label: 'Confirm this address', href: input.link } },
    {
      text:
        `The link works once and expires on ${utc(input.expiresAt)}. Until the address is confirmed the account ` +
        'cannot create or join an organization. If you did not sign up, ignore this email.',
    },
  ]);
}

/** The answer to a sign-up with an address that has an account: where to sign in or reset the password. */
export function renderAlreadyRegisteredEmail(input: { signInLink: string; resetLink: string }): AccountEmail {
  return compose('You already have a Tracker account', [
    {
      text: 'Someone (hopefully you) tried to sign up to Tracker with this email address, which already has an account.',
    },
    { text: '', link: { label: 'Sign in', href: input.signInLink } },
    { text: '', link: { label: 'Forgot your password? Reset it', href: input.resetLink } },
    { text: 'If it was not you, ignore this email: nothing changed.' },
  ]);
}
