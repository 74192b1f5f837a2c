import { CopyBlock } from '../../components/copy-button';
import { visibleText } from '../../lib/visible-text';

interface SourceMapsNote {
  release: string;
  releaseHasMaps: boolean;
  missing: string[];
}

/**
 * What the worker noted on a minified event whose release has no map for its files (decision
 * 042): which release, which files, and the command that uploads them. Event context is the
 * sender's data, so the note is read defensively and shown only as React text.
 */
export function MissingSourceMaps({ context }: { context: unknown }) {
  const note = readNote(context);
  if (!note) return null;
  const files = note.missing.map((f) => f.slice(f.lastIndexOf('/') + 1));
  return (
    <div className="notice" role="note" aria-label="Missing source maps">
      <p>
        <strong>Minified frames:</strong>{' '}
        {note.releaseHasMaps
          ? `release ${visibleText(note.release)} has source maps, but none for `
          : `no source maps were uploaded for release ${visibleText(note.release)}, so this stack stays minified: `}
        {files.map((file, i) => (
          <span key={file}>
            {i > 0 && ', '}
            <code>{visibleText(file)}</code>
          </span>
        ))}
        . Events of this bug stay in this issue once the maps are uploaded.
      </p>
      <CopyBlock
        label="Copy the upload command"
        text={`TRACKER_AUTH_TOKEN=etu_<token> TRACKER_DSN=<dsn> TRACKER_RELEASE=${shellQuote(note.release)} npx tracker-upload-sourcemaps <build output folder>`}
      />
    </div>
  );
}

function readNote(context: unknown): SourceMapsNote | null {
  const meta = (context as { _meta?: { sourceMaps?: unknown } } | null)?._meta?.sourceMaps as
    Partial<SourceMapsNote> | undefined;
  if (!meta || typeof meta.release !== 'string' || !Array.isArray(meta.missing)) return null;
  const missing = meta.missing.filter((f): f is string => typeof f === 'string').slice(0, 20);
  if (missing.length === 0) return null;
  return { release: meta.release, releaseHasMaps: meta.releaseHasMaps === true, missing };
}

/** A release name as one shell word: releases are free text (`1.2.0 (beta)`). */
function shellQuote(text: string): string {
  return /^[\w.@+:/-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
