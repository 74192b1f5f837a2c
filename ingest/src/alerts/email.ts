import { smtpTransportOptions } from '@tracker/core';
import nodemailer from 'nodemailer';
import { DeliveryError } from './errors';
import { alertFacts, alertTitle, clip, escapeHtml, kindLabel } from './render';
import type { AlertPayload, EmailChannel, SmtpSettings } from './types';

/** One plain address: no display name, no list, no whitespace (so no header or recipient injection). */
const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

export function isValidAlertEmail(email: string): boolean {
  return typeof email === 'string' && email.length <= 254 && EMAIL_RE.test(email);
}

export function renderAlertEmail(payload: AlertPayload): { subject: string; text: string; html: string } {
  const label = kindLabel(payload.kind);
  const title = alertTitle(payload);
  const subject = `[Tracker] ${label}: ${title}`;
  const facts = alertFacts(payload);

  const text = [
    `${label} in ${payload.project.name}`,
    '',
    title,
    ...(payload.issue?.culprit ? [`  at ${clip(payload.issue.culprit, 500)}`] : []),
    ...(payload.event?.message ? ['', clip(payload.event.message, 2000)] : []),
    '',
    ...facts.map(([k, v]) => `${`${k}:`.padEnd(13)}${v}`),
    '',
    ...(payload.issue ? [`View the issue: ${payload.issue.url}`] : []),
    '',
    '-- ',
    `Sent by Tracker because alert rule ${payload.ruleId} fired (${payload.kind}).`,
    '',
  ].join('\n');

  const rows = facts
    .map(
      ([k, v]) =>
        `<tr><th align="left" style="padding:2px 12px 2px 0;color:#555">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`,
    )
    .join('');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;font-size:14px;color:#222">',
    `<p style="color:#b00;font-weight:bold">${escapeHtml(label)} in ${escapeHtml(payload.project.name)}</p>`,
    payload.issue
      ? `<h2 style="margin:0 0 4px"><a href="${escapeHtml(payload.issue.url)}">${escapeHtml(title)}</a></h2>`
      : `<h2 style="margin:0 0 4px">${escapeHtml(title)}</h2>`,
    payload.issue?.culprit ? `<p><code>${escapeHtml(clip(payload.issue.culprit, 500))}</code></p>` : '',
    payload.event?.message ? `<blockquote>${escapeHtml(clip(payload.event.message, 2000))}</blockquote>` : '',
    `<table>${rows}</table>`,
    payload.issue ? `<p><a href="${escapeHtml(payload.issue.url)}">View the issue</a></p>` : '',
    `<p style="color:#888;font-size:12px">Sent by Tracker because alert rule ${escapeHtml(payload.ruleId)} fired (${escapeHtml(payload.kind)}).</p>`,
    '</body></html>',
  ].join('');
  return { subject, text, html };
}

interface SmtpFailure extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
}

function errorForSmtp(err: SmtpFailure): DeliveryError {
  if (err instanceof DeliveryError) return err;
  const status = typeof err.responseCode === 'number' ? err.responseCode : undefined;
  const message = `SMTP ${err.code ?? 'error'}: ${clip(err.response ?? err.message, 300)}`;
  if (status !== undefined) {
    // 5xx replies are permanent (bad recipient, relay denied, auth failed), 4xx transient.
    return new DeliveryError({ code: 'SMTP', status, retryable: status < 500, message, cause: err });
  }
  if (err.code === 'ETIMEDOUT') {
    return new DeliveryError({ code: 'TIMEOUT', retryable: true, message, cause: err });
  }
  // Bad credentials, a refused envelope or message without a reply code: fix the settings, not retry.
  const permanent = err.code === 'EAUTH' || err.code === 'EENVELOPE' || err.code === 'EMESSAGE';
  return new DeliveryError({ code: permanent ? 'SMTP' : 'CONNECTION', retryable: !permanent, message, cause: err });
}

export async function deliverEmail(
  channel: EmailChannel,
  payload: AlertPayload,
  options: { smtp?: SmtpSettings; timeoutMs: number },
): Promise<{ status?: number; messageId: string }> {
  if (!isValidAlertEmail(channel.email)) {
    throw new DeliveryError({
      code: 'INVALID_CHANNEL',
      retryable: false,
      message: `not a single email address: ${clip(String(channel.email), 100)}`,
    });
  }
  const smtp = options.smtp;
  if (!smtp) {
    throw new DeliveryError({
      code: 'NOT_CONFIGURED',
      retryable: false,
      message: 'email alerts need SMTP settings, and none are configured',
    });
  }
  const transporter = nodemailer.createTransport(smtpTransportOptions(smtp, options.timeoutMs));
  const { subject, text, html } = renderAlertEmail(payload);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new DeliveryError({
            code: 'TIMEOUT',
            retryable: true,
            message: `SMTP server did not accept the message within ${options.timeoutMs} ms`,
          }),
        ),
      options.timeoutMs,
    );
  });
  try {
    const info = await Promise.race([
      transporter.sendMail({
        from: smtp.from,
        to: channel.email,
        subject,
        text,
        html,
        headers: {
          'Auto-Submitted': 'auto-generated',
          'X-Auto-Response-Suppress': 'All',
          'X-Tracker-Delivery': payload.deliveryId,
          'X-Tracker-Event': payload.kind,
        },
      }),
      deadline,
    ]);
    const code = /^(\d{3})/.exec(String(info.response ?? ''));
    return { status: code ? Number(code[1]) : undefined, messageId: info.messageId };
  } catch (err) {
    throw errorForSmtp(err as SmtpFailure);
  } finally {
    clearTimeout(timer);
    transporter.close();
  }
}
