import { AppError, errorMessage, smtpTransportOptions, type SmtpConfig } from '@tracker/core';
import nodemailer from 'nodemailer';

/** Per SMTP stage: a relay that does not answer fails the button's request, not forever. */
const SMTP_TIMEOUT_MS = 10_000;

/**
 * The admin screen's "Send test email": one message to the admin's own address through the
 * relay every other mail uses (alerts, invitations, usage warnings), sent once, never retried;
 * the relay's answer, or its refusal, goes back to the screen as is.
 */
export async function sendAdminTestEmail(
  smtp: SmtpConfig | undefined,
  input: { to: string; publicUrl: string; now: Date },
): Promise<{ to: string; response: string }> {
  if (!smtp) {
    throw new AppError(
      'BAD_USER_INPUT',
      'Email is not configured on this instance: set TRACKER_SMTP_URL (and TRACKER_SMTP_FROM), then restart Tracker',
    );
  }
  const transporter = nodemailer.createTransport(smtpTransportOptions(smtp, SMTP_TIMEOUT_MS));
  try {
    const info = await transporter.sendMail({
      from: smtp.from,
      to: input.to,
      subject: 'Tracker test email',
      text:
        `This is a test email from the Tracker instance at ${input.publicUrl}, sent from its admin screen at ` +
        `${input.now.toISOString()}.\n\nIt arrived, so alert, invitation and usage-warning emails can too.\n`,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
    return { to: input.to, response: String(info.response ?? 'accepted') };
  } catch (err) {
    throw new AppError(
      'UNAVAILABLE',
      `The email relay ${smtp.host}:${smtp.port} did not take it: ${errorMessage(err)}`,
    );
  } finally {
    transporter.close();
  }
}
