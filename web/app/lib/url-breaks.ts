/**
 * A URL cut into the pieces between which a line may break: after `/`, `?`, `&`, `#`, `=` and `-`,
 * and before `.` (so a host or a file name does not leave its dot dangling at a line's end).
 * The two slashes of `//` stay together. Joined, the pieces are the URL again.
 */
export function splitUrlAtSeparators(url: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  for (let i = 0; i < url.length; i++) {
    const c = url[i];
    if (c === '/' && url[i + 1] === '/') continue;
    let cut = -1;
    if (c === '/' || c === '?' || c === '&' || c === '#' || c === '=' || c === '-') cut = i + 1;
    else if (c === '.' && i > start) cut = i;
    if (cut > start && cut < url.length) {
      pieces.push(url.slice(start, cut));
      start = cut;
    }
  }
  pieces.push(url.slice(start));
  return pieces.filter((p) => p !== '');
}
