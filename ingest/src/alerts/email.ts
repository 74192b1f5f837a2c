import { EMAIL_UNAVAILABLE, smtpTransportOptions } from '@tracker/core';
import nodemailer from 'nodemailer';
import { DeliveryError } from './errors';
import { clip, describeAlert, escapeHtml } from './render';
import type { AlertPayload, EmailChannel, SmtpSettings } from './types';

/** One plain address: no display name, no list, no whitespace (so no header or recipient injection). */
const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

export function isValidAlertEmail(email: string): boolean {
  return typeof email === 'string' && email.length <= 254 && EMAIL_RE.test(email);
}

/**
 * The subject, a plain-text part and an HTML part saying the same thing. In the HTML every piece
 * of event text is escaped (`escapeHtml`) and links are only http(s) URLs.
 */
export function renderAlertEmail(payload: AlertPayload): { subject: string; text: string; html: string } {
  const m = describeAlert(payload);
  const subject = `[Tracker] ${m.label}: ${m.title}`;

  const text = [
    `${m.label} in ${m.project}`,
    '',
    m.title,
    ...(m.culprit ? [`  at ${m.culprit}`] : []),
    ...(m.detail ? ['', m.detail] : []),
    '',
    ...m.facts.map(([k, v]) => `${`${k}:`.padEnd(Math.max(13, ...m.facts.map(([l]) => l.length + 2)))}${v}`),
    ...(m.digest
      ? [
          '',
          `${m.digest.count} alerts${m.digest.minutes ? ` in ${m.digest.minutes} min` : ''}:`,
          ...m.digest.lines.map((l) => `  - ${l.title}${l.url ? ` <${l.url}>` : ''}`),
        ]
      : []),
    '',
    ...(m.view ? [`${m.test ? 'Open the Alerts page' : 'View the issue'}: ${m.view.url}`] : []),
    ...m.mute.map((l) => `${l.text}: ${l.url}`),
    '',
    '-- ',
    m.test
      ? `A test notification for alert rule ${payload.ruleId} (${payload.kind}), sent from the Alerts page. No issue triggered it.`
      : `Sent by Tracker because alert rule ${payload.ruleId} fired (${payload.kind}).`,
    '',
  ].join('\n');

  const link = (l: { url: string; text: string }) => `<a href="${escapeHtml(l.url)}">${escapeHtml(l.text)}</a>`;
  const rows = m.facts
    .map(
      ([k, v]) =>
        `<tr><th align="left" style="padding:2px 12px 2px 0;color:#555">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`,
    )
    .join('');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;font-size:14px;color:#222">',
    `<p style="color:${m.test ? '#36c' : '#b00'};font-weight:bold">${escapeHtml(m.label)} in ${escapeHtml(m.project)}</p>`,
    `<h2 style="margin:0 0 4px">${m.view ? link({ url: m.view.url, text: m.title }) : escapeHtml(m.title)}</h2>`,
    m.culprit ? `<p><code>${escapeHtml(m.culprit)}</code></p>` : '',
    m.detail ? `<blockquote>${escapeHtml(m.detail)}</blockquote>` : '',
    `<table>${rows}</table>`,
    m.digest
      ? `<p><b>${m.digest.count} alerts${m.digest.minutes ? ` in ${m.digest.minutes} min` : ''}</b></p><ul>${m.digest.lines
          .map((l) => `<li>${l.url ? link({ url: l.url, text: l.title }) : escapeHtml(l.title)}</li>`)
          .join('')}</ul>`
      : '',
    m.view ? `<p>${link({ url: m.view.url, text: m.test ? 'Open the Alerts page' : 'View the issue' })}</p>` : '',
    m.mute.length > 0 ? `<p style="font-size:12px">${m.mute.map(link).join(' · ')}</p>` : '',
    `<p style="color:#888;font-size:12px">${
      m.test
        ? `A test notification for alert rule ${escapeHtml(payload.ruleId)}, sent from the Alerts page. No issue triggered it.`
        : `Sent by Tracker because alert rule ${escapeHtml(payload.ruleId)} fired (${escapeHtml(payload.kind)}).`
    }</p>`,
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
  const reply = err.response ? clip(err.response, 300) : undefined;
  if (status !== undefined) {
    // 5xx replies are permanent (bad recipient, relay denied, auth failed), 4xx transient.
    const retryable = status < 500;
    return new DeliveryError({
      code: 'SMTP',
      status,
      retryable,
      response: reply,
      message: `The mail server refused the message (${status}${reply ? `: ${reply}` : ''}). ${
        retryable ? 'Tracker will try again.' : 'Check the address; Tracker will not retry.'
      }`,
      cause: err,
    });
  }
  if (err.code === 'ETIMEDOUT') {
    return new DeliveryError({
      code: 'TIMEOUT',
      retryable: true,
      message: 'The mail server did not answer in time. Tracker will try again.',
      cause: err,
    });
  }
  // Bad credentials, a refused envelope or message without a reply code: fix the settings, not retry.
  const permanent = err.code === 'EAUTH' || err.code === 'EENVELOPE' || err.code === 'EMESSAGE';
  return new DeliveryError({
    code: permanent ? 'SMTP' : 'CONNECTION',
    retryable: !permanent,
    response: reply,
    message: permanent
      ? 'The mail server did not accept the message or Tracker’s login; whoever runs this Tracker should check its mail settings.'
      : 'Could not reach this instance’s mail server. Tracker will try again.',
    cause: err,
  });
}

export async function deliverEmail(
  channel: EmailChannel,
  payload: AlertPayload,
  options: { smtp?: SmtpSettings; timeoutMs: number },
): Promise<{ status?: number; messageId: string; response?: string }> {
  if (!isValidAlertEmail(channel.email)) {
    throw new DeliveryError({
      code: 'INVALID_CHANNEL',
      retryable: false,
      message: `Not a single email address: ${clip(String(channel.email), 100)}.`,
    });
  }
  const smtp = options.smtp;
  if (!smtp) {
    throw new DeliveryError({
      code: 'NOT_CONFIGURED',
      retryable: false,
      message: EMAIL_UNAVAILABLE,
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
            message: `The mail server did not take the message within ${Math.round(options.timeoutMs / 100) / 10} s. Tracker will try again.`,
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
          ...(payload.test === true ? { 'X-Tracker-Test': '1' } : {}),
        },
      }),
      deadline,
    ]);
    const code = /^(\d{3})/.exec(String(info.response ?? ''));
    return {
      status: code ? Number(code[1]) : undefined,
      messageId: info.messageId,
      response: clip(String(info.response ?? ''), 300),
    };
  } catch (err) {
    throw errorForSmtp(err as SmtpFailure);
  } finally {
    clearTimeout(timer);
    transporter.close();
  }
}
