import type { ReactNode } from 'react';

/** A section's data, or why the viewer cannot see it (the loader's `section()`). */
export type SectionData<T> = { data: T | null; reason: string | null };

/** Renders an ISO time relative to the loader's `now`, or a dash when there is none. */
export type FormatTime = (iso: string | null) => ReactNode;

export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}

/** A section's data, or why the viewer cannot see it (FORBIDDEN for a plain member reads as a sentence). */
export function sectionOf<T>(
  result: { ok: true; data: T } | { ok: false; error: { code: string; message: string } },
): SectionData<T> {
  if (result.ok) return { data: result.data, reason: null };
  return {
    data: null,
    reason: result.error.code === 'FORBIDDEN' ? 'Only owners and admins can see this.' : result.error.message,
  };
}
