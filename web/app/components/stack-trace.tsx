import type { StackFrameFieldsFragment } from '../graphql/graphql';
import { visibleText } from '../lib/visible-text';

/** What `...StackFrameFields` selects (app/features/issue/queries.ts). */
export type FrameData = StackFrameFieldsFragment;

function location(frame: { filename: string; lineno: number | null; colno: number | null }): string {
  if (frame.lineno == null) return frame.filename;
  return `${frame.filename}:${frame.lineno}${frame.colno == null ? '' : `:${frame.colno}`}`;
}

/** Runs of frames: each in-app frame alone, consecutive library frames together. */
function runsOf(frames: FrameData[]): Array<{ start: number; frames: FrameData[]; library: boolean }> {
  const runs: Array<{ start: number; frames: FrameData[]; library: boolean }> = [];
  frames.forEach((frame, index) => {
    const last = runs.at(-1);
    if (!frame.inApp && last?.library) last.frames.push(frame);
    else runs.push({ start: index, frames: [frame], library: !frame.inApp });
  });
  return runs;
}

/**
 * Frames innermost first, as the API gives them. `showMinified` shows each frame as the engine
 * printed it (when a source map was applied) instead of the original source. In-app frames are
 * open (source lines, the error's line highlighted, and local variables in their own
 * `<details>`); runs of library frames fold into one "N library frames" `<details>` when the
 * stack has in-app frames at all: the "show all frames" switch, without a script (CSP forbids
 * inline scripts, decision 007). Every string here came from an event or a source map uploaded
 * by the customer: text only.
 */
export function StackTrace({ frames, showMinified }: { frames: FrameData[]; showMinified: boolean }) {
  if (frames.length === 0) return <p className="muted">This error has no stack trace.</p>;
  const hasInApp = frames.some((f) => f.inApp);
  // Without in-app frames nothing tells where to look: the innermost frame with source opens.
  const openIndex = hasInApp
    ? -1
    : Math.max(
        frames.findIndex((f) => f.context),
        0,
      );
  return (
    <ol className="frames">
      {runsOf(frames).map((run) =>
        run.library && hasInApp ? (
          <li key={run.start} className="frame frame-library-run">
            <details>
              <summary className="frame-head">
                Show {run.frames.length} library frame{run.frames.length === 1 ? '' : 's'}
              </summary>
              <ol className="frames-nested">
                {run.frames.map((frame, i) => (
                  <FrameItem key={i} frame={frame} open={false} showMinified={showMinified} />
                ))}
              </ol>
            </details>
          </li>
        ) : (
          run.frames.map((frame, i) => (
            <FrameItem
              key={run.start + i}
              frame={frame}
              open={frame.inApp || run.start + i === openIndex}
              showMinified={showMinified}
            />
          ))
        ),
      )}
    </ol>
  );
}

function FrameItem({ frame, open, showMinified }: { frame: FrameData; open: boolean; showMinified: boolean }) {
  const shown = showMinified && frame.minified ? frame.minified : frame;
  const context = showMinified ? null : frame.context;
  const hasBody = context !== null || frame.vars.length > 0;
  return (
    <li className={frame.inApp ? 'frame frame-in-app' : 'frame'}>
      <details open={open || !hasBody}>
        <summary className="frame-head">
          <span className="frame-function">{visibleText(shown.function ?? '<anonymous>')}</span>
          <span className="frame-location">{visibleText(location(shown))}</span>
          {!frame.inApp && <span className="tag">library</span>}
          {frame.minified && !showMinified && <span className="tag">source-mapped</span>}
        </summary>
        {context && <SourceLines context={context} lineno={frame.lineno} />}
        {frame.vars.length > 0 && (
          <details className="frame-vars">
            <summary>Local variables ({frame.vars.length})</summary>
            <div className="table-scroll" tabIndex={0}>
              <table className="data-table vars-table">
                <tbody>
                  {frame.vars.map((v, i) => (
                    <tr key={i}>
                      <th scope="row" className="mono">
                        {visibleText(v.name)}
                      </th>
                      <td className="mono">{visibleText(v.value)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        )}
      </details>
    </li>
  );
}

function SourceLines({ context, lineno }: { context: NonNullable<FrameData['context']>; lineno: number | null }) {
  return (
    <pre className="frame-context" tabIndex={0} aria-label={`Source around line ${lineno ?? ''}`}>
      {context.pre.map((line, i) => (
        <code key={`pre-${i}`} className="ctx-line">
          <span className="ctx-no" aria-hidden="true">
            {lineno != null ? lineno - context.pre.length + i : ''}
          </span>
          {visibleText(line)}
          {'\n'}
        </code>
      ))}
      <code className="ctx-line ctx-current">
        <span className="ctx-no" aria-hidden="true">
          {lineno ?? ''}
        </span>
        {visibleText(context.line)}
        {'\n'}
      </code>
      {context.post.map((line, i) => (
        <code key={`post-${i}`} className="ctx-line">
          <span className="ctx-no" aria-hidden="true">
            {lineno != null ? lineno + 1 + i : ''}
          </span>
          {visibleText(line)}
          {'\n'}
        </code>
      ))}
    </pre>
  );
}
