/**
 * A header as one value. A repeated header is joined (`a, b`), which is what HTTP makes of it (RFC 9110
 * §5.3) and matches no single expected value (one origin, one media type).
 */
export function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
