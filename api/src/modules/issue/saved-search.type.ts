import type { SavedSearch } from '@tracker/core';
import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('SavedSearch', {
  description: "A person's named issue search in one project, shown as a tab above the list.",
})
export class SavedSearchType {
  @Field(() => ID)
  id: string;

  @Field(() => ID)
  projectId: string;

  @Field(() => String)
  name: string;

  @Field(() => String, { description: 'In the search language of `issues(query:)`.' })
  query: string;

  @Field(() => String, { description: 'ISO 8601.' })
  createdAt: string;
}

export function toSavedSearchType(s: SavedSearch): SavedSearchType {
  return { id: s.id, projectId: s.projectId, name: s.name, query: s.query, createdAt: s.createdAt.toISOString() };
}
