import { smtpTransportOptions, type InvitationEmail, type SmtpConfig } from '@tracker/core';
import nodemailer from 'nodemailer';

/** Per SMTP stage (connect, greeting, each command): an unreachable relay fails the send, not the request forever. */
const SMTP_TIMEOUT_MS = 10_000;

/** Sends one invitation over SMTP (STARTTLS when the server offers it, smtps:// for implicit TLS). */
export async function sendInvitationEmail(smtp: SmtpConfig, to: string, email: InvitationEmail): Promise<void> {
  const transporter = nodemailer.createTransport(smtpTransportOptions(smtp, SMTP_TIMEOUT_MS));
  try {
    await transporter.sendMail({
      from: smtp.from,
      to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  } finally {
    transporter.close();
  }
}
