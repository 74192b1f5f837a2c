import { targetUrlOrThrow } from './guard';
import { postJson, type PostOptions, type PostResult } from './http-post';
import { clip, describeAlert } from './render';
import type { AlertPayload, TeamsChannel } from './types';

type Card = Record<string, unknown>;

/** Plain text in a card: a TextRun is never read as Markdown, so event text cannot add links or formatting. */
function run(text: string, style: Card = {}): Card {
  return { type: 'TextRun', text, ...style };
}

function line(inlines: Card[], extra: Card = {}): Card {
  return { type: 'RichTextBlock', inlines, ...extra };
}

/**
 * A Microsoft Teams incoming-webhook message: the `message` envelope with one Adaptive Card
 * (version 1.4), the form both the Workflows webhook ("When a Teams webhook request is
 * received") and the older Incoming Webhook connector accept. Every piece of event text is a
 * `TextRun` (never Markdown); links are `Action.OpenUrl` buttons to the issue and the mute page.
 */
export function buildTeamsMessage(payload: AlertPayload): Card {
  const m = describeAlert(payload);
  const body: Card[] = [
    line([run(m.label, { weight: 'Bolder', color: m.test ? 'Accent' : 'Attention' }), run(` · ${m.project}`)]),
    line([run(clip(m.title, 500), { size: 'Large', weight: 'Bolder' })], { spacing: 'Small' }),
  ];
  if (m.culprit) body.push(line([run(m.culprit, { fontType: 'Monospace' })]));
  if (m.detail) body.push(line([run(clip(m.detail, 1000), { italic: true })]));
  for (const [k, v] of m.facts) body.push(line([run(`${k}: `, { weight: 'Bolder' }), run(v)], { spacing: 'None' }));
  if (m.digest) {
    body.push(
      line([
        run(`${m.digest.count} alerts${m.digest.minutes ? ` in ${m.digest.minutes} min` : ''}`, { weight: 'Bolder' }),
      ]),
    );
    for (const l of m.digest.lines) body.push(line([run(`• ${l.title}`)], { spacing: 'None' }));
  }
  body.push(line([run(m.footer, { isSubtle: true, size: 'Small' })]));
  const actions = [...(m.view ? [m.view] : []), ...m.mute].map((l) => ({
    type: 'Action.OpenUrl',
    title: l.text,
    url: l.url,
  }));
  return {
    type: 'message',
    // Shown in notifications and the activity feed.
    summary: clip(`${m.label}: ${m.title}`, 150),
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          msteams: { width: 'Full' },
          body,
          actions,
        },
      },
    ],
  };
}

export async function deliverTeams(
  channel: TeamsChannel,
  payload: AlertPayload,
  options: PostOptions,
): Promise<PostResult> {
  const url = targetUrlOrThrow(channel.url, options.allowPrivateTargets);
  return postJson(url, JSON.stringify(buildTeamsMessage(payload)), {}, options, 'Microsoft Teams');
}
