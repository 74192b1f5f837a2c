import { Fragment } from 'react';
import { splitUrlAtSeparators } from '../lib/url-breaks';
import { visibleText } from '../lib/visible-text';

/**
 * A URL as text that wraps at its separators on a narrow screen (a `<wbr>` after each `/`, `?`,
 * `&`, `=`, `-`, before each `.`), not in the middle of a word; a piece longer than the line still
 * breaks anywhere (`.break`). Still React text only (decision 007): `<wbr>` carries nothing.
 */
export function UrlText({ url }: { url: string }) {
  return (
    <>
      {splitUrlAtSeparators(visibleText(url)).map((piece, i) => (
        // Pieces may repeat (`/a/a/`): their position is the key.
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {piece}
        </Fragment>
      ))}
    </>
  );
}
