import { sourcePathFromMap, type StackFrame, type SymbolicatedFrame } from '@tracker/core';
import { Field, Int, ObjectType } from 'type-graphql';

// A stack frame and an exception of a chain, as the issue page reads them (event.type.ts).
// `simpleResolvers: true` on every type: see issue.type.ts.

@ObjectType('MinifiedFrame', {
  simpleResolvers: true,
  description: 'The frame as the engine printed it, before source maps.',
})
export class MinifiedFrameType {
  @Field(() => String)
  filename: string;

  @Field(() => String, { nullable: true })
  function: string | null;

  @Field(() => Int, { nullable: true })
  lineno: number | null;

  @Field(() => Int, { nullable: true })
  colno: number | null;
}

@ObjectType('SourceContext', {
  simpleResolvers: true,
  description:
    "Source lines around the frame's line: from the source map's sourcesContent after de-minifying, else as the SDK sent them (Sentry's pre_context/context_line/post_context, our contextLines). At most 5 each side, each at most 200 characters.",
})
export class SourceContextType {
  @Field(() => [String])
  pre: string[];

  @Field(() => String)
  line: string;

  @Field(() => [String])
  post: string[];
}

@ObjectType('Frame', {
  simpleResolvers: true,
  description: 'A stack frame, innermost first; de-minified when a source map of the release matched.',
})
export class FrameType extends MinifiedFrameType {
  @Field(() => Boolean, { description: 'False for runtime and dependency frames.' })
  inApp: boolean;

  @Field(() => MinifiedFrameType, { nullable: true, description: 'Set when a source map was applied.' })
  minified: MinifiedFrameType | null;

  @Field(() => SourceContextType, { nullable: true, description: 'The source lines around `lineno`, when known.' })
  context: SourceContextType | null;

  // The same lines flat, under the names Sentry's frames use, so an integration written against
  // Sentry's pre_context/context_line/post_context maps field for field.
  @Field(() => [String], { description: 'Up to 5 source lines before `lineno` (empty when unknown).' })
  preContext: string[];

  @Field(() => String, { nullable: true, description: 'The source line at `lineno`, when known.' })
  contextLine: string | null;

  @Field(() => [String], { description: 'Up to 5 source lines after `lineno` (empty when unknown).' })
  postContext: string[];

  @Field(() => [FrameVarType], {
    description: 'Local variables as the SDK sent them (Sentry `vars`), in its order: at most 50, values as text.',
  })
  vars: FrameVarType[];
}

@ObjectType('FrameVar', { simpleResolvers: true, description: 'One local variable of a frame, scrubbed at ingest.' })
export class FrameVarType {
  @Field(() => String)
  name: string;

  @Field(() => String, { description: 'As text (other JSON values serialized), at most 500 characters.' })
  value: string;
}

@ObjectType('EventException', {
  simpleResolvers: true,
  description: 'One error of the chain: the thrown one first, then what caused it, then what caused that.',
})
export class EventExceptionType {
  @Field(() => String)
  type: string;

  @Field(() => String, { description: 'Its message.' })
  value: string;

  @Field(() => [FrameType], { description: 'Innermost first; de-minified where a source map matched.' })
  frames: FrameType[];

  @Field(() => String, { nullable: true, description: 'The stack text as the SDK sent it, when it sent one.' })
  stack: string | null;
}

export function toFrameType(f: SymbolicatedFrame | StackFrame): FrameType {
  const minified = 'minified' in f ? (f.minified ?? null) : null;
  return {
    // Frames de-minified before paths were tidied (sourcePathFromMap) read the same as new ones.
    filename: minified ? sourcePathFromMap(f.filename) : f.filename,
    function: f.function,
    lineno: f.lineno,
    colno: f.colno,
    inApp: f.inApp,
    minified,
    context: f.context ? { pre: [...f.context.pre], line: f.context.line, post: [...f.context.post] } : null,
    preContext: f.context ? [...f.context.pre] : [],
    contextLine: f.context?.line ?? null,
    postContext: f.context ? [...f.context.post] : [],
    vars: Object.entries(f.vars ?? {}).map(([name, value]) => ({ name, value: String(value) })),
  };
}
