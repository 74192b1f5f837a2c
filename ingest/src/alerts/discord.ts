import { targetUrlOrThrow } from './guard';
import { postJson, type PostOptions, type PostResult } from './http-post';
import { clip, describeAlert } from './render';
import type { AlertPayload, DiscordChannel } from './types';

/**
 * Discord Markdown is escaped with a backslash; event text must not format, link (masked links
 * need `[`, `]`, `(`, `)`), quote, mention (`@`, `<@…>`) or start a list or heading. Colons and
 * inner dashes stay as they are: dates and versions read normally.
 */
export function escapeDiscord(text: string): string {
  return text.replace(/[\\*_~`|>[\]()#@<]/g, (c) => `\\${c}`).replace(/^-/gm, '\\-');
}

/** A link in Markdown: its URL must not end the link early. */
function discordLink(label: string, url: string): string {
  return `[${escapeDiscord(label)}](${url.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/\s/g, '%20')})`;
}

const COLORS: Record<string, number> = { test: 0x5865f2, REGRESSED_ISSUE: 0xe03e2f, NEW_ISSUE: 0xf5a623 };

/**
 * A Discord webhook message: a short `content` line and one embed (title linking to the issue,
 * the culprit and message, the facts as inline fields, mute links, a footer). Mentions are off
 * (`allowed_mentions.parse: []`): an event message saying `@everyone` must not ping a server.
 * Limits kept: title 256, description 4096, 25 fields of 256/1024, footer 2048, content 2000.
 */
export function buildDiscordMessage(payload: AlertPayload): Record<string, unknown> {
  const m = describeAlert(payload);
  const description: string[] = [];
  if (m.culprit) description.push(`\`${clip(m.culprit, 300).replace(/`/g, "'")}\``);
  if (m.detail) description.push(`> ${escapeDiscord(clip(m.detail, 1500))}`);
  if (m.digest) {
    description.push(`**${m.digest.count} alerts${m.digest.minutes ? ` in ${m.digest.minutes} min` : ''}**`);
    for (const l of m.digest.lines)
      description.push(`• ${l.url ? discordLink(l.title, l.url) : escapeDiscord(l.title)}`);
  }
  if (m.mute.length > 0) description.push(m.mute.map((l) => discordLink(l.text, l.url)).join(' · '));
  const embed: Record<string, unknown> = {
    title: clip(escapeDiscord(`${m.label}: ${m.title}`), 256),
    description: description.join('\n').slice(0, 4096),
    color: COLORS[m.test ? 'test' : payload.kind] ?? 0xe03e2f,
    fields: m.facts
      .slice(0, 25)
      .map(([k, v]) => ({ name: clip(k, 256), value: escapeDiscord(clip(v, 1000)), inline: true })),
    footer: { text: clip(m.footer, 2048) },
    timestamp: payload.triggeredAt,
  };
  if (m.view) embed.url = m.view.url;
  return {
    content: clip(`${m.label} in ${escapeDiscord(m.project)}: ${escapeDiscord(m.title)}`, 2000),
    embeds: [embed],
    allowed_mentions: { parse: [] },
  };
}

export async function deliverDiscord(
  channel: DiscordChannel,
  payload: AlertPayload,
  options: PostOptions,
): Promise<PostResult> {
  const url = targetUrlOrThrow(channel.url, options.allowPrivateTargets);
  return postJson(url, JSON.stringify(buildDiscordMessage(payload)), {}, options, 'Discord');
}
