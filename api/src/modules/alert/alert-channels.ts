import type { AlertInstance } from '@tracker/core';
import type { Context } from '../../context';

export { assertChannelDeliverable } from '@tracker/core';

/** What this instance can deliver to, from its configuration. */
export function instanceOf(ctx: Context): AlertInstance {
  return { smtpConfigured: ctx.config.smtp !== undefined, allowPrivateTargets: ctx.config.allowPrivateTargets };
}
