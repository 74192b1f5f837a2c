declare const __SDK_VERSION__: string;

/** Replaced with package.json's version at build time; the fallback only shows in source runs. */
export const SDK_VERSION = typeof __SDK_VERSION__ == 'string' ? __SDK_VERSION__ : '0.0.0-dev';
