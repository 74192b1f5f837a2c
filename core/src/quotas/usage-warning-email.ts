import type { UsageMeter } from '../plans';
import type { UsageWarningThreshold } from './usage-warnings';

/** The dashboard's billing page of an organization: where a warning sends its reader. */
export function billingPageLink(publicUrl: string, organizationSlug: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/orgs/${encodeURIComponent(organizationSlug)}/billing`;
}

export interface UsageWarningEmail {
  subject: string;
  text: string;
  html: string;
}

// Organization names come from users: no line breaks or other controls in a header, escaped in HTML.
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const number = (n: number) => n.toLocaleString('en-US');
const day = (d: Date) => d.toISOString().slice(0, 10);

const WHAT: Record<UsageMeter, { quota: string; items: string; refused: string }> = {
  events: {
    quota: 'monthly event quota',
    items: 'events (errors, messages and Web Vitals reports)',
    refused: 'new errors, messages and Web Vitals reports are refused (HTTP 429)',
  },
  logs: {
    quota: 'monthly log quota',
    items: 'log entries',
    refused: 'new log entries are refused (HTTP 429)',
  },
};

export function renderUsageWarningEmail(input: {
  organizationName: string;
  meter: UsageMeter;
  threshold: UsageWarningThreshold;
  used: number;
  limit: number;
  period: string;
  /** When the counts reset. */
  periodEnd: Date;
  billingUrl: string;
}): UsageWarningEmail {
  const org = oneLine(input.organizationName);
  const what = WHAT[input.meter];
  const full = input.threshold >= 100;
  const subject = full
    ? `[Tracker] ${org} has reached its ${what.quota}`
    : `[Tracker] ${org} has used ${input.threshold}% of its ${what.quota}`;
  const status = `${number(input.used)} of ${number(input.limit)} ${what.items} used in ${input.period} (UTC).`;
  const consequence = full
    ? `Until the quota resets on ${day(input.periodEnd)} (00:00 UTC), ${what.refused}.`
    : `${number(Math.max(0, input.limit - input.used))} remain until the quota resets on ${day(input.periodEnd)} (00:00 UTC); after that, ${what.refused}.`;
  const text = [
    subject.replace(/^\[Tracker\] /, '') + '.',
    '',
    status,
    consequence,
    '',
    `Upgrade the plan or see the usage: ${input.billingUrl}`,
    '',
    '-- ',
    'Sent by Tracker to the owners and admins of the organization, once per threshold and month.',
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family:sans-serif;font-size:14px;color:#222">',
    `<p><strong>${escapeHtml(subject.replace(/^\[Tracker\] /, ''))}.</strong></p>`,
    `<p>${escapeHtml(status)}<br>${escapeHtml(consequence)}</p>`,
    `<p><a href="${escapeHtml(input.billingUrl)}">Upgrade the plan or see the usage</a></p>`,
    '<p style="color:#888;font-size:12px">Sent by Tracker to the owners and admins of the organization, once per threshold and month.</p>',
    '</body></html>',
  ].join('');
  return { subject, text, html };
}
