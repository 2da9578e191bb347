import { describe, expect, it } from 'vitest';
import { escapeHtml, html, raw, SafeHtml } from './html.js';

const PAYLOADS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  '`onerror=alert(1)`',
  '</title><script>alert(1)</script>',
  '&lt;already-escaped&gt;',
  'javascript:alert(1)',
];

/** No markup-significant character survives escaping. */
const UNSAFE = /[<>"'`]|&(?!(?:amp|lt|gt|quot|#39|#96);)/;

describe('escapeHtml', () => {
  it('escapes & < > " \' and the backtick', () => {
    expect(escapeHtml(`&<>"'\``)).toBe('&amp;&lt;&gt;&quot;&#39;&#96;');
    expect(escapeHtml('plain text: é ü 漢字')).toBe('plain text: é ü 漢字');
  });

  it('escapes & first, so an already-escaped string is escaped again rather than trusted', () => {
    expect(escapeHtml('&lt;b&gt;')).toBe('&amp;lt;b&amp;gt;');
  });
});

describe('html tag', () => {
  it.each(PAYLOADS)(
    'escapes %s in text, in double- and single-quoted attributes and in a title',
    (payload) => {
      // prettier-ignore
      const out = html`<title>${payload}</title><p title="${payload}" data-x='${payload}'>${payload}</p>`.toString();
      const interpolated = out.split(/<\/?(?:title|p)[^>]*>/);
      expect(out.startsWith('<title>')).toBe(true);
      // Exactly the template's own four tags remain.
      expect(out.match(/</g)).toHaveLength(4);
      for (const part of [
        ...interpolated,
        ...Array.from(out.matchAll(/"([^"]*)"|'([^']*)'/g), (m) => m[1] ?? m[2] ?? ''),
      ]) {
        expect(part).not.toMatch(UNSAFE);
      }
    },
  );

  it('keeps the template literal parts and nested templates as markup', () => {
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}</p>`.toString()).toBe('<p><b>&lt;i&gt;</b></p>');
  });

  it('joins arrays, escaping each item and keeping nested templates', () => {
    const items = ['<a>', 'b&c'].map((item) => html`<li>${item}</li>`);
    // prettier-ignore
    expect(html`<ul>${items}</ul>`.toString()).toBe('<ul><li>&lt;a&gt;</li><li>b&amp;c</li></ul>');
    expect(html`${['<x>', 1, [raw('<br>')]]}`.toString()).toBe('&lt;x&gt;1<br>');
  });

  it('renders false, null and undefined as nothing and numbers as text', () => {
    const flag = false as boolean;
    expect(html`[${flag && html`<b>on</b>`}${null}${undefined}${0}${-1.5}]`.toString()).toBe('[0-1.5]');
  });

  it('inserts raw() fragments as they are, and only those', () => {
    expect(html`${raw('<hr>')}${'<hr>'}`.toString()).toBe('<hr>&lt;hr&gt;');
  });

  it('cannot be fooled by an object that looks like safe markup', () => {
    const forged = { toString: () => '<script>' } as unknown as SafeHtml;
    expect(html`${forged}`.toString()).not.toContain('<script>');
    expect(new SafeHtml('<b>')).toBeInstanceOf(SafeHtml);
  });
});
