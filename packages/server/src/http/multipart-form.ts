/** The media type of a form with a file field (`<form enctype="multipart/form-data">`). */
export const MULTIPART_MEDIA_TYPE = 'multipart/form-data';

const BOUNDARY = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i;
const FIELD_NAME = /;\s*name="([^"]{1,100})"/i;

/**
 * Reads a `multipart/form-data` body (RFC 7578) into its fields by name, a file field as its content
 * read as UTF-8 text (the pages that take a file take a small text document). Undefined for a body that
 * is not well-formed: no boundary, no closing delimiter, a part without a name. The body limit applies
 * before this runs.
 */
export function parseMultipartForm(body: Buffer, contentType: string): Record<string, string> | undefined {
  const match = BOUNDARY.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (boundary === undefined) return undefined;
  // latin1 maps bytes one to one, so the parts can be cut as text and each value decoded as UTF-8 after.
  const text = body.toString('latin1');
  const delimiter = `--${boundary}`;
  const end = text.indexOf(`${delimiter}--`);
  if (end < 0) return undefined;
  const parts = text.slice(0, end).split(delimiter).slice(1);
  const fields: Record<string, string> = {};
  for (const part of parts) {
    const headerEnd = part.indexOf('\r\n\r\n');
    if (!part.startsWith('\r\n') || headerEnd < 0 || !part.endsWith('\r\n')) return undefined;
    const name = FIELD_NAME.exec(part.slice(0, headerEnd))?.[1];
    if (name === undefined) return undefined;
    fields[name] = Buffer.from(part.slice(headerEnd + 4, -2), 'latin1').toString('utf8');
  }
  return fields;
}
