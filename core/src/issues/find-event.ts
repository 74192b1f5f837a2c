import type { DataSource } from 'typeorm';
import { findProjectAccess, type Caller } from '../access';
import { Event } from '../entities';

/** The event when the caller may read its project; null when it is missing or another tenant's. */
export async function findEvent(ds: DataSource, caller: Caller, id: string): Promise<Event | null> {
  // Event ids are bigint serials: anything else is a missing id, answered without a query.
  if (!/^\d{1,18}$/.test(id)) return null;
  const event = await ds.manager.findOneBy(Event, { id });
  if (!event) return null;
  // The same rule as every other read (access/), at the cost of a second indexed lookup.
  return (await findProjectAccess(ds, caller, event.projectId)) ? event : null;
}
