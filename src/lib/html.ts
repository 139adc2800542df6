/**
 * The sandbox's own HTML pages outside the console (link pages, the OAuth sign-in): self-contained
 * documents, inline style, no asset from elsewhere, every dynamic value escaped with escapeHtml.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe between tags and inside a quoted attribute. */
export const escapeHtml = (value: string | number): string =>
  String(value).replace(/[&<>"']/g, (ch) => ESCAPES[ch] as string);

/** A whole page: its title (escaped here), its inline style, and its body (HTML, escaped by the caller). */
export function htmlDocument(title: string, style: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
${body}
</body>
</html>`;
}
