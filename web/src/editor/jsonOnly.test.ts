import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './plainMarkdown';
import { parseJSON5DocumentState, parseYAMLDocumentState } from './jsonOnly';

describe('the editor stand-ins for codemirror-json-schema', () => {
  it('escapes a description and keeps its code spans', () => {
    expect(renderMarkdown('Worker `threads` <= 16 & "more"')).toBe(
      'Worker <code>threads</code> &lt;= 16 &amp; &quot;more&quot;',
    );
  });

  it('splits block descriptions into paragraphs', () => {
    expect(renderMarkdown('one\n\ntwo', false)).toBe('<p>one</p><p>two</p>');
  });

  it('refuses the JSON5 and YAML modes loudly', () => {
    expect(() => parseJSON5DocumentState()).toThrow(/JSON/);
    expect(() => parseYAMLDocumentState()).toThrow(/JSON/);
  });
});
