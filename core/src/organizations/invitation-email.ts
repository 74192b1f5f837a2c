import type { Role } from '../entities';

/** The link in the email: the dashboard's invitation page. */
export function invitationLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/invitations/${encodeURIComponent(token)}`;
}

export interface InvitationEmail {
  subject: string;
  text: string;
  html: string;
}

// Names come from users: no line breaks or other controls in a header, and escaped in HTML.
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function renderInvitationEmail(input: {
  organizationName: string;
  inviterEmail: string;
  role: Role;
  link: string;
  expiresAt: Date;
}): InvitationEmail {
  const org = oneLine(input.organizationName);
  const inviter = oneLine(input.inviterEmail);
  const expires = input.expiresAt
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  const subject = `${inviter} invited you to ${org} on Tracker`;
  const text = [
    `${inviter} invited you to join the organization "${org}" on Tracker as ${input.role}.`,
    '',
    `Accept the invitation: ${input.link}`,
    '',
    `The link works once and expires on ${expires}. If you did not expect this email, ignore it.`,
  ].join('\n');
  const html = [
    `<p>${escapeHtml(inviter)} invited you to join the organization <strong>${escapeHtml(org)}</strong> on Tracker as ${input.role}.</p>`,
    `<p><a href="${escapeHtml(input.link)}">Accept the invitation</a></p>`,
    `<p>The link works once and expires on ${escapeHtml(expires)}. If you did not expect this email, ignore it.</p>`,
  ].join('\n');
  return { subject, text, html };
}
