/** 1 MB: far above any real error event, small enough that a flood cannot exhaust memory. */
export const MAX_EVENT_BYTES = 1024 * 1024;
