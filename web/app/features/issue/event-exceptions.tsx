import type { EventDetailFieldsFragment } from '../../graphql/graphql';
import { StackTrace } from '../../components/stack-trace';
import { visibleText } from '../../lib/visible-text';

type Exception = EventDetailFieldsFragment['exceptions'][number];

/**
 * The error and its causes as Sentry shows them: the thrown one first with its stack, then each
 * "Caused by" in its own `<details>` (open; a click folds it, no script needed) with its own stack.
 */
export function EventExceptions({ exceptions, showMinified }: { exceptions: Exception[]; showMinified: boolean }) {
  const [thrown, ...causes] = exceptions;
  return (
    <>
      <StackTrace frames={thrown?.frames ?? []} showMinified={showMinified} />
      {causes.map((cause, i) => (
        <details key={i} className="exception-cause" open>
          <summary>
            <span className="muted">Caused by</span>{' '}
            <span className="mono exception-type">{visibleText(cause.type)}</span>
            {cause.value ? <span className="mono">: {visibleText(cause.value)}</span> : null}
          </summary>
          <StackTrace frames={cause.frames} showMinified={showMinified} />
        </details>
      ))}
    </>
  );
}
