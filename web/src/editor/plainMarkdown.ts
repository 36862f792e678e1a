/**
 * Stands in for codemirror-json-schema's markdown renderer (markdown-it with
 * shiki highlighting, about 600 KB of the Author tab's chunk) — see
 * vite.config.ts. The committed schema's descriptions are plain sentences
 * with `code` spans, so escaping the text and turning backquoted spans into
 * <code> shows them the same.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** HTML for a schema description: escaped text, `code` spans kept, paragraphs when not inline. */
export function renderMarkdown(markdown: string, inline = true): string {
  const html = escapeHtml(markdown).replace(/`([^`]+)`/g, '<code>$1</code>');
  if (inline) return html;
  return html
    .split(/\n{2,}/)
    .map((p) => `<p>${p}</p>`)
    .join('');
}
