import type { InvitationEmail, SmtpConfig } from '@tracker/core';
import nodemailer from 'nodemailer';

/** Per SMTP stage (connect, greeting, each command): an unreachable relay fails the send, not the request forever. */
const SMTP_TIMEOUT_MS = 10_000;

/** Sends one invitation over SMTP (STARTTLS when the server offers it, smtps:// for implicit TLS). */
export async function sendInvitationEmail(smtp: SmtpConfig, to: string, email: InvitationEmail): Promise<void> {
  const transporter = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.auth,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
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
