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
