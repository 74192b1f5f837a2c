import { Field, Int, ObjectType } from 'type-graphql';
import { FeedbackType } from '../issue/feedback.type';
import { PageInfo } from '../issue/issue.type';

@ObjectType('FeedbackEdge')
export class FeedbackEdge {
  @Field(() => String)
  cursor: string;

  @Field(() => FeedbackType)
  node: FeedbackType;
}

@ObjectType('FeedbackConnection')
export class FeedbackConnection {
  @Field(() => [FeedbackType])
  nodes: FeedbackType[];

  @Field(() => [FeedbackEdge])
  edges: FeedbackEdge[];

  @Field(() => PageInfo)
  pageInfo: PageInfo;

  @Field(() => Int)
  totalCount: number;
}
