import { targetUrlOrThrow } from './guard';
import { postJson, type PostOptions } from './http-post';
import { alertFacts, alertTitle, clip, kindLabel } from './render';
import type { AlertPayload, SlackChannel } from './types';

/** Slack mrkdwn: only &, < and > are special (https://api.slack.com/reference/surfaces/formatting). */
function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The incoming-webhook message: `text` (notifications and clients without blocks) plus Block Kit
 * `blocks`: a header with the kind and title, the culprit and message, the facts as fields, a
 * "View issue" button and a context line. Works for Slack and Slack-compatible receivers
 * (Mattermost, Rocket.Chat, which read `text`).
 */
export function buildSlackMessage(payload: AlertPayload): { text: string; blocks: Record<string, unknown>[] } {
  const label = kindLabel(payload.kind);
  const title = alertTitle(payload);
  const link = payload.issue && isHttpUrl(payload.issue.url) ? payload.issue.url : undefined;
  const text = `${label} in ${escapeMrkdwn(clip(payload.project.name, 100))}: ${
    link ? `<${link}|${escapeMrkdwn(title)}>` : escapeMrkdwn(title)
  }`;

  const detail: string[] = [link ? `*<${link}|${escapeMrkdwn(title)}>*` : `*${escapeMrkdwn(title)}*`];
  if (payload.issue?.culprit) detail.push(`\`${escapeMrkdwn(clip(payload.issue.culprit, 300)).replace(/`/g, "'")}\``);
  if (payload.event?.message) detail.push(`>${escapeMrkdwn(clip(payload.event.message, 1000))}`);

  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(`${label}: ${title}`, 150), emoji: false } },
    { type: 'section', text: { type: 'mrkdwn', text: detail.join('\n') } },
    {
      type: 'section',
      // Slack allows at most 10 fields of at most 2000 characters.
      fields: alertFacts(payload)
        .slice(0, 10)
        .map(([k, v]) => ({ type: 'mrkdwn', text: `*${k}*\n${escapeMrkdwn(clip(v, 200))}` })),
    },
  ];
  if (link) {
    blocks.push({
      type: 'actions',
      elements: [
        {
          type: 'button',
          text: { type: 'plain_text', text: 'View issue' },
          url: link.slice(0, 3000),
          style: 'primary',
        },
      ],
    });
  }
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: escapeMrkdwn(`Tracker · ${payload.issue?.type ?? payload.kind} · triggered ${payload.triggeredAt}`),
      },
    ],
  });
  return { text, blocks };
}

export async function deliverSlack(
  channel: SlackChannel,
  payload: AlertPayload,
  options: PostOptions,
): Promise<number> {
  const url = targetUrlOrThrow(channel.url, options.allowPrivateTargets);
  return postJson(url, JSON.stringify(buildSlackMessage(payload)), {}, options, 'Slack webhook');
}
