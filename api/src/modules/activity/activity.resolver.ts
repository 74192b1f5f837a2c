import {
  addComment,
  assignIssue,
  DEFAULT_ACTIVITY_PAGE,
  deleteComment,
  errorMessage,
  listIssueActivity,
  listMembers,
  MAX_ACTIVITY_PAGE,
  renderAssignmentEmail,
  updateComment,
} from '@tracker/core';
import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Resolver, Root } from 'type-graphql';
import { nowOf, requireCaller, type Context } from '../../context';
import { IssueType, toIssueType } from '../issue/issue.type';
import { sendInvitationEmail as sendEmail } from '../member/invitation-mailer';
import { MemberType, toMemberType } from '../member/member.type';
import { ProjectType } from '../project/project.type';
import { CommentType, IssueActivityType, toCommentType, toIssueActivityType, UserRefType } from './activity.type';

/** Ownership and conversation (issue 19): assignee, timeline, comments. */
@Resolver(() => IssueType)
export class ActivityResolver {
  @FieldResolver(() => UserRefType, {
    nullable: true,
    description: 'The member who owns the issue; null when nobody does.',
  })
  async assignee(@Root() issue: IssueType, @Ctx() ctx: Context): Promise<UserRefType | null> {
    return issue.assigneeId ? ctx.loaders.userRef.load(issue.assigneeId) : null;
  }

  @FieldResolver(() => [IssueActivityType], {
    description: `The timeline, newest first: first seen, state changes and by whom, regressions with their reason, merges, assignments, comments, alert deliveries. At most ${MAX_ACTIVITY_PAGE}. For one issue at a time (the issue page).`,
  })
  async activity(
    @Root() issue: IssueType,
    @Arg('first', () => Int, { nullable: true, defaultValue: DEFAULT_ACTIVITY_PAGE }) first: number | null,
    @Ctx() ctx: Context,
  ): Promise<IssueActivityType[]> {
    const caller = requireCaller(ctx);
    const rows = await listIssueActivity(ctx.ds, {
      caller,
      issueId: issue.id,
      first: first ?? DEFAULT_ACTIVITY_PAGE,
    });
    return rows.map((r) => toIssueActivityType(r, caller.userId));
  }

  @Mutation(() => IssueType, {
    description:
      'Assigns the issue to a member of its organization, or unassigns it (userId null). Any member. Someone outside the organization is BAD_USER_INPUT. The assignee is emailed when SMTP is configured (not when assigning oneself).',
  })
  async assignIssue(
    // Parameters last to first: the printed schema lists them in reverse (id, userId).
    @Arg('userId', () => ID, { nullable: true }) userId: string | null,
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: Context,
  ): Promise<IssueType> {
    const caller = requireCaller(ctx);
    const result = await assignIssue(ctx.ds, { caller, id, userId: userId ?? null, now: nowOf(ctx) });
    const smtp = ctx.config.smtp;
    if (smtp && result.changed && result.assignee && result.assignee.id !== caller.userId) {
      const to = result.assignee.email;
      const message = renderAssignmentEmail({
        publicUrl: ctx.config.publicUrl,
        projectId: result.issue.projectId,
        projectName: result.projectName,
        issueId: result.issue.id,
        issueTitle: result.issue.title,
        assignerEmail: result.actor.email,
      });
      // Not awaited: the assignment is done; a slow or failing relay must not hold the answer.
      sendEmail(smtp, to, message).catch((err: unknown) =>
        ctx.log?.warn({ issueId: result.issue.id, error: errorMessage(err) }, 'assignment email not sent'),
      );
    }
    return toIssueType(result.issue);
  }

  @Mutation(() => CommentType, {
    description: 'Plain text, at most 10,000 characters. Any member (a `write` token too).',
  })
  async addComment(
    @Arg('body', () => String) body: string,
    @Arg('issueId', () => ID) issueId: string,
    @Ctx() ctx: Context,
  ): Promise<CommentType> {
    const caller = requireCaller(ctx);
    return toCommentType(await addComment(ctx.ds, { caller, issueId, body, now: nowOf(ctx) }), caller.userId);
  }

  @Mutation(() => CommentType, { description: 'Its author only.' })
  async updateComment(
    @Arg('body', () => String) body: string,
    @Arg('id', () => ID) id: string,
    @Ctx() ctx: Context,
  ): Promise<CommentType> {
    const caller = requireCaller(ctx);
    return toCommentType(await updateComment(ctx.ds, { caller, id, body, now: nowOf(ctx) }), caller.userId);
  }

  @Mutation(() => ID, { description: 'Its author only; removes it from the timeline. Returns its id.' })
  async deleteComment(@Arg('id', () => ID) id: string, @Ctx() ctx: Context): Promise<string> {
    return deleteComment(ctx.ds, { caller: requireCaller(ctx), id });
  }
}

/** The people an issue of the project can be assigned to, in the issue page's one request. */
@Resolver(() => ProjectType)
export class ProjectMembersResolver {
  @FieldResolver(() => [MemberType], {
    description: "The members of the project's organization (who its issues can be assigned to); as `members`.",
  })
  async members(@Root() project: ProjectType, @Ctx() ctx: Context): Promise<MemberType[]> {
    return (await listMembers(ctx.ds, requireCaller(ctx), project.organizationId)).map(toMemberType);
  }
}
