// The one body parser lives in core (core/src/events/parse-body.ts), shared with the
// dashboard's scrubbing preview; the routes keep importing it from here.
export { parseBody } from '@tracker/core';
