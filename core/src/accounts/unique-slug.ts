import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { Organization } from '../entities';

/** `Acme Corp` → `acme-corp`, or `acme-corp-3f9a` when that is taken. */
export async function uniqueSlug(em: EntityManager, name: string): Promise<string> {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'org';
  let slug = base;
  while (await em.existsBy(Organization, { slug })) {
    slug = `${base}-${randomBytes(2).toString('hex')}`;
  }
  return slug;
}
