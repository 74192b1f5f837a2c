import { targetUrlOrThrow } from './guard';
import { postJson, type PostOptions, type PostResult } from './http-post';
import { clip, describeAlert } from './render';
import type { AlertPayload, SlackChannel } from './types';

/** Slack mrkdwn: only &, < and > are special (https://api.slack.com/reference/surfaces/formatting). */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** `<url|text>`: the URL must not carry `|` or `>` (it would end the link early). */
function mrkdwnLink(url: string, label: string): string {
  return `<${url.replace(/\|/g, '%7C').replace(/>/g, '%3E')}|${escapeMrkdwn(label)}>`;
}

/**
 * The incoming-webhook message: `text` (notifications and clients without blocks) plus Block Kit
 * `blocks`: a header with the kind and title, the culprit and message, the facts as fields
 * (counts, environment, release, and whatever optional facts the kind adds), a digest's list,
 * "View issue" and "Mute" buttons, and a context line. Works for Slack and Slack-compatible
 * receivers (Mattermost, Rocket.Chat, which read `text`).
 */
export function buildSlackMessage(payload: AlertPayload): { text: string; blocks: Record<string, unknown>[] } {
  const m = describeAlert(payload);
  const text = `${m.label} in ${escapeMrkdwn(clip(m.project, 100))}: ${
    m.view ? mrkdwnLink(m.view.url, m.title) : escapeMrkdwn(m.title)
  }`;

  const detail: string[] = [m.view ? `*${mrkdwnLink(m.view.url, m.title)}*` : `*${escapeMrkdwn(m.title)}*`];
  if (m.culprit) detail.push(`\`${escapeMrkdwn(clip(m.culprit, 300)).replace(/`/g, "'")}\``);
  if (m.detail) detail.push(`>${escapeMrkdwn(clip(m.detail, 1000))}`);

  const blocks: Record<string, unknown>[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(`${m.label}: ${m.title}`, 150), emoji: false } },
    { type: 'section', text: { type: 'mrkdwn', text: detail.join('\n') } },
    {
      type: 'section',
      // Slack allows at most 10 fields of at most 2000 characters.
      fields: m.facts.slice(0, 10).map(([k, v]) => ({ type: 'mrkdwn', text: `*${k}*\n${escapeMrkdwn(clip(v, 200))}` })),
    },
  ];
  if (m.digest) {
    const lines = m.digest.lines.map((l) => `• ${l.url ? mrkdwnLink(l.url, l.title) : escapeMrkdwn(l.title)}`);
    const more = m.digest.count > lines.length ? `\n…and ${m.digest.count - lines.length} more` : '';
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        // A section's text is at most 3000 characters.
        text: `*${m.digest.count} alerts${m.digest.minutes ? ` in ${m.digest.minutes} min` : ''}*\n${lines.join('\n')}${more}`.slice(
          0,
          3000,
        ),
      },
    });
  }
  const buttons: Record<string, unknown>[] = [];
  if (m.view) {
    buttons.push({
      type: 'button',
      text: { type: 'plain_text', text: m.view.text },
      url: m.view.url.slice(0, 3000),
      style: 'primary',
    });
  }
  for (const link of m.mute) {
    buttons.push({ type: 'button', text: { type: 'plain_text', text: link.text }, url: link.url.slice(0, 3000) });
  }
  if (buttons.length > 0) blocks.push({ type: 'actions', elements: buttons });
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: escapeMrkdwn(m.footer) }] });
  return { text, blocks };
}

export async function deliverSlack(
  channel: SlackChannel,
  payload: AlertPayload,
  options: PostOptions,
): Promise<PostResult> {
  const url = targetUrlOrThrow(channel.url, options.allowPrivateTargets);
  return postJson(url, JSON.stringify(buildSlackMessage(payload)), {}, options, 'Slack');
}
