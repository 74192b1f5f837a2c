import { createSavedSearch, deleteSavedSearch, listSavedSearches } from '@tracker/core';
import { Arg, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import { SavedSearchType, toSavedSearchType } from './saved-search.type';

@Resolver()
export class SavedSearchResolver {
  @Query(() => [SavedSearchType], {
    description: "Your saved issue searches in a project, oldest first. Nobody else's are shown.",
  })
  async savedSearches(@Arg('projectId', () => ID) projectId: string, @Ctx() ctx: Context): Promise<SavedSearchType[]> {
    return (await listSavedSearches(ctx.ds, requireCaller(ctx), projectId)).map(toSavedSearchType);
  }

  @Mutation(() => SavedSearchType, {
    description:
      'Saves an issue search for you under a name (1 to 64 characters, once per project; at most 50). The query is ' +
      'checked as `issues(query:)` checks it: BAD_USER_INPUT names what is wrong.',
  })
  async createSavedSearch(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('name', () => String) name: string,
    @Arg('query', () => String) query: string,
    @Ctx() ctx: Context,
  ): Promise<SavedSearchType> {
    return toSavedSearchType(await createSavedSearch(ctx.ds, requireCaller(ctx), { projectId, name, query }));
  }

  @Mutation(() => ID, { description: 'Deletes one of your saved searches; returns its id.' })
  async deleteSavedSearch(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<string> {
    return deleteSavedSearch(ctx.ds, requireCaller(ctx), id);
  }
}
