/**
 * RFC 9110 §13.1.2: If-None-Match is `*` or a comma-separated list of entity tags, compared weakly (a
 * `W/` prefix does not matter). A cache revalidating with several stored tags, or with `*`, must get the
 * 304 too, not only a client that echoes the single current tag.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}
