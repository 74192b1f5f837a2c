/** Issue 31: one sample error event per inbound filter, shared by the server test and the browser test. */
export const CHROME_131 =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IE_11 = 'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko';
const BINGBOT = 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)';

/** One sample per filter, and the filter that must drop it. */
export const SAMPLES: Array<{ filter: string; event: Record<string, unknown> }> = [
  {
    filter: 'BROWSER_EXTENSIONS',
    event: { stack: 'TypeError: boom\n    at inject (chrome-extension://abcdefgh/content.js:3:9)' },
  },
  { filter: 'LOCALHOST', event: { url: 'http://localhost:5173/checkout' } },
  { filter: 'LEGACY_BROWSERS', event: { context: { userAgent: IE_11 } } },
  { filter: 'WEB_CRAWLERS', event: { context: { userAgent: BINGBOT } } },
  { filter: 'ERROR_MESSAGES', event: { message: 'ResizeObserver loop completed with undelivered notifications.' } },
  { filter: 'RELEASES', event: { release: 'web@2.0.0-dev' } },
];

/** Every filter on, with the patterns the samples need. */
export const ALL_ON = {
  browserExtensions: true,
  localhost: true,
  legacyBrowsers: true,
  webCrawlers: true,
  errorMessages: ['*ResizeObserver loop*'],
  releases: ['*-dev'],
};
