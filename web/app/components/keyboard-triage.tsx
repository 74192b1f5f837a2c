import { useFetcher, useNavigate } from '@remix-run/react';
import { useEffect } from 'react';

const IGNORED_TARGETS = 'input:not([type="checkbox"]), textarea, select, [contenteditable="true"]';

type Props = {
  /** Ids of the rows in display order. */
  ids: string[];
  activeIndex: number;
  setActiveIndex: (index: number) => void;
  /** Path of an issue page, for Enter / o. */
  pathOf: (id: string) => string;
  /** Offer r (resolve) and s (snooze): only for open issues. */
  canTriage: boolean;
};

/**
 * j/k move through the list, x selects, o opens (Enter on the focused title too), r resolves and s snoozes for 24 hours
 * the current row. A dozen lines of listener, no library; the same actions stay reachable with
 * the mouse and the bulk form, so nothing depends on it.
 */
export function KeyboardTriage({ ids, activeIndex, setActiveIndex, pathOf, canTriage }: Props) {
  const fetcher = useFetcher();
  const navigate = useNavigate();
  useEffect(() => {
    function focusRow(index: number) {
      setActiveIndex(index);
      const row = document.querySelector<HTMLElement>(`tr[data-issue-id="${CSS.escape(ids[index])}"]`);
      row?.querySelector<HTMLElement>('a.issue-title')?.focus();
    }
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
      if (event.target instanceof Element && event.target.closest(IGNORED_TARGETS)) return;
      if (ids.length === 0) return;
      const current = ids[activeIndex];
      switch (event.key) {
        case 'j':
          focusRow(Math.min(activeIndex + 1, ids.length - 1));
          break;
        case 'k':
          focusRow(Math.max(activeIndex - 1, 0));
          break;
        case 'x': {
          if (!current) return;
          const box = document.querySelector<HTMLInputElement>(
            `tr[data-issue-id="${CSS.escape(current)}"] input[name="ids"]`,
          );
          box?.click();
          break;
        }
        case 'o':
          if (!current) return;
          navigate(pathOf(current));
          break;
        case 'r':
        case 's':
          if (!current || !canTriage) return;
          fetcher.submit(
            event.key === 'r'
              ? { intent: 'resolve', ids: current }
              : { intent: 'snooze', ids: current, duration: '24h' },
            { method: 'post' },
          );
          break;
        default:
          return;
      }
      event.preventDefault();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [ids, activeIndex, setActiveIndex, pathOf, canTriage, fetcher, navigate]);
  return (
    <p className="hint keyboard-hint">
      Keyboard: <kbd>j</kbd>/<kbd>k</kbd> move, <kbd>x</kbd> select, <kbd>o</kbd> open
      {canTriage && (
        <>
          , <kbd>r</kbd> resolve, <kbd>s</kbd> snooze 24 hours
        </>
      )}
      .
      <span className="visually-hidden" aria-live="polite">
        {fetcher.state === 'submitting' ? 'Updating the issue…' : ''}
      </span>
    </p>
  );
}
