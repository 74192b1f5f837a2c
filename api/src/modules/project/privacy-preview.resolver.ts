import { previewScrubbing, SAMPLE_ERROR_EVENT } from '@tracker/core';
import { Arg, Ctx, Field, ID, ObjectType, Query, Resolver } from 'type-graphql';
import { requireCaller, type Context } from '../../context';
import { ProjectPrivacyInput, ProjectPrivacyType } from './project.type';

@ObjectType('ScrubbingPreview')
export class ScrubbingPreviewType {
  @Field(() => String, { description: 'The sample event after parsing and scrubbing, as JSON: what would be stored.' })
  event: string;

  @Field(() => String, { description: 'The sample as given, or the built-in one when none was.' })
  sample: string;

  @Field(() => ProjectPrivacyType, { description: "The settings used: the project's, with the draft on top." })
  settings: ProjectPrivacyType;
}

@Resolver()
export class PrivacyPreviewResolver {
  @Query(() => ScrubbingPreviewType, {
    description:
      'Any member. What an error event (JSON as an SDK posts it to /ingest/error; a built-in sample when left out) ' +
      "becomes after the ingest edge's parsing and scrubbing, with the project's privacy settings or, when given, " +
      'the draft settings on top of them (nothing is saved). The same code as the edge: the preview is what would be stored.',
  })
  async previewScrubbing(
    @Arg('projectId', () => ID) projectId: string,
    @Arg('sample', () => String, { nullable: true }) sample: string | null,
    @Arg('draft', () => ProjectPrivacyInput, { nullable: true }) draft: ProjectPrivacyInput | null,
    @Ctx() ctx: Context,
  ): Promise<ScrubbingPreviewType> {
    const text = sample ?? JSON.stringify(SAMPLE_ERROR_EVENT, null, 2);
    const r = await previewScrubbing(ctx.ds, requireCaller(ctx), {
      projectId,
      sample: text,
      draft: {
        scrubDefaults: draft?.scrubDefaults ?? undefined,
        sensitiveFields: draft?.sensitiveFields ?? undefined,
        scrubIpAddresses: draft?.scrubIpAddresses ?? undefined,
      },
    });
    return {
      event: JSON.stringify(r.event, null, 2),
      sample: text,
      settings: { ...r.settings, sensitiveFields: [...r.settings.sensitiveFields] },
    };
  }
}
