import type { EntityManager } from 'typeorm';
import { Membership, Organization } from '../entities';

/** The user's oldest membership's organization (the sign-in landing page), or null when they have none. */
export async function firstOrganization(em: EntityManager, userId: string): Promise<Organization | null> {
  const membership = await em.findOne(Membership, { where: { userId }, order: { createdAt: 'ASC' } });
  return membership ? em.findOneBy(Organization, { id: membership.organizationId }) : null;
}
