import { smtpTransportOptions, type SmtpConfig } from '@tracker/core';
import nodemailer from 'nodemailer';

/** Per SMTP stage, as for invitations: an unreachable relay fails the request, not forever. */
const SMTP_TIMEOUT_MS = 10_000;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The dashboard page that completes the change. */
export function emailChangeLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/confirm-email/${encodeURIComponent(token)}`;
}

/** Sends the confirmation link to the new address (only its reader can complete the change). */
export async function sendEmailChangeEmail(
  smtp: SmtpConfig,
  input: { to: string; oldEmail: string; link: string; expiresAt: Date },
): Promise<void> {
  const expires = input.expiresAt
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
  const transporter = nodemailer.createTransport(smtpTransportOptions(smtp, SMTP_TIMEOUT_MS));
  try {
    await transporter.sendMail({
      from: smtp.from,
      to: input.to,
      subject: 'Confirm your new email on Tracker',
      text: [
        `The Tracker account ${input.oldEmail} asked to use this address from now on.`,
        '',
        `Confirm it: ${input.link}`,
        '',
        `The link works once and expires on ${expires}. If you did not ask for this, ignore this email.`,
      ].join('\n'),
      html: [
        `<p>The Tracker account ${escapeHtml(input.oldEmail)} asked to use this address from now on.</p>`,
        `<p><a href="${escapeHtml(input.link)}">Confirm the new email</a></p>`,
        `<p>The link works once and expires on ${escapeHtml(expires)}. If you did not ask for this, ignore this email.</p>`,
      ].join('\n'),
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  } finally {
    transporter.close();
  }
}
