import type { StackFrameFieldsFragment } from '../graphql/graphql';
import { visibleText } from '../lib/visible-text';

/** What `...StackFrameFields` selects (app/features/issue/queries.ts). */
export type FrameData = StackFrameFieldsFragment;

function location(frame: { filename: string; lineno: number | null; colno: number | null }): string {
  if (frame.lineno == null) return frame.filename;
  return `${frame.filename}:${frame.lineno}${frame.colno == null ? '' : `:${frame.colno}`}`;
}

/**
 * Frames innermost first, as the API gives them. `showMinified` shows each frame as the engine
 * printed it (when a source map was applied) instead of the original source. Every string here
 * came from an event or a source map uploaded by the customer: text only.
 */
export function StackTrace({ frames, showMinified }: { frames: FrameData[]; showMinified: boolean }) {
  if (frames.length === 0) return <p className="muted">This event has no stack trace.</p>;
  // Source is open for the innermost in-app frame (where the bug most likely is); the others
  // open on demand with <details>, which needs no script.
  const openIndex = Math.max(
    frames.findIndex((f) => f.inApp && f.context),
    0,
  );
  return (
    <ol className="frames">
      {frames.map((frame, index) => {
        const shown = showMinified && frame.minified ? frame.minified : frame;
        const context = showMinified ? null : frame.context;
        return (
          <li key={index} className={frame.inApp ? 'frame frame-in-app' : 'frame'}>
            <details open={index === openIndex || !context}>
              <summary className="frame-head">
                <span className="frame-function">{visibleText(shown.function ?? '<anonymous>')}</span>
                <span className="frame-location">{visibleText(location(shown))}</span>
                {!frame.inApp && <span className="tag">library</span>}
                {frame.minified && !showMinified && <span className="tag">source-mapped</span>}
              </summary>
              {context && (
                <pre className="frame-context" tabIndex={0} aria-label={`Source around line ${frame.lineno ?? ''}`}>
                  {context.pre.map((line, i) => (
                    <code key={`pre-${i}`} className="ctx-line">
                      <span className="ctx-no" aria-hidden="true">
                        {frame.lineno != null ? frame.lineno - context.pre.length + i : ''}
                      </span>
                      {visibleText(line)}
                      {'\n'}
                    </code>
                  ))}
                  <code className="ctx-line ctx-current">
                    <span className="ctx-no" aria-hidden="true">
                      {frame.lineno ?? ''}
                    </span>
                    {visibleText(context.line)}
                    {'\n'}
                  </code>
                  {context.post.map((line, i) => (
                    <code key={`post-${i}`} className="ctx-line">
                      <span className="ctx-no" aria-hidden="true">
                        {frame.lineno != null ? frame.lineno + 1 + i : ''}
                      </span>
                      {visibleText(line)}
                      {'\n'}
                    </code>
                  ))}
                </pre>
              )}
            </details>
          </li>
        );
      })}
    </ol>
  );
}
