import type { ViewerQuery } from '../graphql/graphql';

// The signed-in user as the `_app` layout's loader reads it (`query Viewer`). Here rather than in
// the route so that the header, which the route renders, does not import its own parent.

export type Viewer = NonNullable<ViewerQuery['viewer']>;
