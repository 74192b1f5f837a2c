import { smtpTransportOptions, type SmtpConfig, type UsageWarningEmail } from '@tracker/core';
import nodemailer from 'nodemailer';

/**
 * Sends one usage warning to the organization's owners and admins, in one message: they are
 * colleagues who see each other in the member list, and one message means one outcome to record.
 * Timeouts per SMTP stage, so an unreachable relay fails the attempt instead of hanging the job.
 */
export async function sendUsageWarningEmail(
  smtp: SmtpConfig,
  to: string[],
  email: UsageWarningEmail,
  options: { timeoutMs: number; warningId: string },
): Promise<void> {
  const transporter = nodemailer.createTransport(smtpTransportOptions(smtp, options.timeoutMs));
  try {
    await transporter.sendMail({
      from: smtp.from,
      to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      headers: {
        'Auto-Submitted': 'auto-generated',
        'X-Auto-Response-Suppress': 'All',
        'X-Tracker-Usage-Warning': options.warningId,
      },
    });
  } finally {
    transporter.close();
  }
}
