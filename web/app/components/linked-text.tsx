import { Fragment } from 'react';
import { toSafeHref } from '../lib/safe-url';
import { visibleText } from '../lib/visible-text';

// A run of non-space characters starting with http:// or https://. Punctuation that usually ends a
// sentence is left out of the link ("see https://example.com/a." links without the dot).
const URL_RUN = /\bhttps?:\/\/[^\s<>"]+/gi;
const TRAILING = /[.,;:!?'")\]}>]+$/;

/** Plain text split into text and http(s) URLs; exported for tests. */
export function splitLinks(text: string): Array<{ text: string; href: string | null }> {
  const parts: Array<{ text: string; href: string | null }> = [];
  let last = 0;
  for (const match of text.matchAll(URL_RUN)) {
    const start = match.index ?? 0;
    let url = match[0];
    const trail = TRAILING.exec(url);
    if (trail) url = url.slice(0, url.length - trail[0].length);
    const href = toSafeHref(url);
    if (!href) continue;
    if (start > last) parts.push({ text: text.slice(last, start), href: null });
    parts.push({ text: url, href });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), href: null });
  return parts;
}

/**
 * What a person wrote (a comment): React text, with http(s) URLs as links that open in a new
 * tab without `window.opener` or a referrer. Nothing else becomes markup: no HTML, no Markdown.
 */
export function LinkedText({ text }: { text: string }) {
  return (
    <>
      {splitLinks(text).map((part, i) =>
        part.href ? (
          <a key={i} className="break" href={part.href} target="_blank" rel="noopener noreferrer nofollow ugc">
            {visibleText(part.text)}
          </a>
        ) : (
          <Fragment key={i}>{visibleText(part.text)}</Fragment>
        ),
      )}
    </>
  );
}
