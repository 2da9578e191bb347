import { describe, expect, it } from 'vitest';
import { parseMultipartForm } from './multipart-form.js';

function body(boundary: string, parts: readonly string[]): Buffer {
  return Buffer.from(`${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`, 'utf8');
}

describe('parseMultipartForm', () => {
  it('reads text fields and a file field (as UTF-8 text) by name', () => {
    const fields = parseMultipartForm(
      body('XyZ', [
        'Content-Disposition: form-data; name="_csrf"\r\n\r\ntoken',
        'Content-Disposition: form-data; name="metadataFile"; filename="idp.xml"\r\nContent-Type: text/xml\r\n\r\n<x>é</x>',
      ]),
      'multipart/form-data; boundary=XyZ',
    );
    expect(fields).toEqual({ _csrf: 'token', metadataFile: '<x>é</x>' });
  });

  it('accepts a quoted boundary', () => {
    expect(
      parseMultipartForm(
        body('a b', ['Content-Disposition: form-data; name="k"\r\n\r\nv']),
        'multipart/form-data; boundary="a b"',
      ),
    ).toEqual({ k: 'v' });
  });

  it('refuses a body without a boundary, without its closing delimiter, or with a nameless part', () => {
    const ok = body('B', ['Content-Disposition: form-data; name="k"\r\n\r\nv']);
    expect(parseMultipartForm(ok, 'multipart/form-data')).toBeUndefined();
    expect(
      parseMultipartForm(
        Buffer.from('--B\r\nContent-Disposition: form-data; name="k"\r\n\r\nv\r\n'),
        'multipart/form-data; boundary=B',
      ),
    ).toBeUndefined();
    expect(
      parseMultipartForm(
        body('B', ['Content-Disposition: form-data\r\n\r\nv']),
        'multipart/form-data; boundary=B',
      ),
    ).toBeUndefined();
  });
});
