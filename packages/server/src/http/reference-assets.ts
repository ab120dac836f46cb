// The reference page's stylesheet and its one script, served next to it (/docs/reference.css,
// /docs/reference.js) and written beside it by `pnpm docs:build`. Kept in code rather than as files so
// the server needs no asset folder wherever it runs from.

/** File names next to the page (links on the page are relative to it). */
export const REFERENCE_ASSETS = {
  css: 'reference.css',
  js: 'reference.js',
  spec: 'openapi.json',
} as const;

export const REFERENCE_CSS = `
:root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --bg: #ffffff; --panel: #f5f6f8; --line: #dde1e7; --link: #1f5fbf;
  --get: #1a7f37; --post: #1f5fbf; --put: #8a5a00; --patch: #7a3fb0; --delete: #b42318; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e9ef; --muted: #a3abba; --bg: #14171c; --panel: #1c2027; --line: #2e343e; --link: #7fb0ff;
  --get: #4cc26a; --post: #7fb0ff; --put: #e0b050; --patch: #c59bf0; --delete: #ff7b72; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.55 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); display: flex; }
a { color: var(--link); text-decoration: none; } a:hover { text-decoration: underline; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 0.75em; overflow: auto; max-height: 28em; }
.sidebar { position: sticky; top: 0; height: 100vh; overflow-y: auto; width: 19rem; flex: none; padding: 1rem; border-right: 1px solid var(--line); background: var(--panel); font-size: 0.9em; }
.sidebar .brand { font-weight: 600; margin: 0 0 0.75rem; }
.sidebar input { width: 100%; padding: 0.4em 0.6em; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); color: var(--fg); margin-bottom: 0.75rem; }
.toc, .toc ul { list-style: none; margin: 0; padding: 0; } .toc > li { margin: 0.4rem 0; } .toc > li > a { font-weight: 600; color: var(--fg); }
.toc ul li { margin: 0.15rem 0 0.15rem 0.25rem; } .toc ul a { color: var(--fg); display: block; }
main { flex: 1; min-width: 0; max-width: 62rem; padding: 1.5rem 2.5rem 4rem; }
h1 .version, .brand .version { color: var(--muted); font-weight: 400; font-size: 0.7em; }
section.tag, #schemas { border-top: 1px solid var(--line); margin-top: 2rem; padding-top: 0.5rem; }
article { margin: 1.5rem 0 2.5rem; } article h3 { margin-bottom: 0.25rem; }
.endpoint { margin: 0.25rem 0; } .endpoint code { font-size: 1em; } .operation-id { color: var(--muted); font-size: 0.85em; margin-left: 0.5em; }
.method { display: inline-block; min-width: 3.6em; font: 600 0.75em/1.6 ui-monospace, "DejaVu Sans Mono", monospace; text-align: center; border-radius: 4px; color: #fff; padding: 0 0.35em; }
.method.get { background: var(--get); } .method.post { background: var(--post); } .method.put { background: var(--put); } .method.patch { background: var(--patch); } .method.delete { background: var(--delete); }
.access { border-left: 3px solid var(--link); background: var(--panel); padding: 0.35em 0.75em; margin: 0.5rem 0; }
.access p { margin: 0; } .access-rules { margin: 0.25rem 0 0; padding-left: 1.25rem; font-size: 0.9em; }
.access[data-declared="false"] { border-left-color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 0.5rem 0; font-size: 0.9em; }
th, td { text-align: left; vertical-align: top; border-bottom: 1px solid var(--line); padding: 0.35em 0.5em; } td p { margin: 0; }
.limits, .media-type, .headers { color: var(--muted); }
dl.responses dt { font-weight: 600; margin-top: 0.5rem; } dl.responses dd { margin: 0 0 0 1.5rem; } dd p { margin: 0.2rem 0; }
.status.success { color: var(--get); } .status.error { color: var(--delete); }
details.example summary { cursor: pointer; color: var(--link); }
.example-label { margin: 0.5rem 0 0.15rem; color: var(--muted); font-size: 0.85em; } .request-examples pre { max-height: 18em; }
h3 .anchor { color: var(--muted); font-weight: 400; visibility: hidden; } article:hover h3 .anchor, h3 .anchor:focus { visibility: visible; }
[hidden] { display: none !important; }
@media (max-width: 48rem) { body { display: block; } .sidebar { position: static; height: auto; width: auto; } main { padding: 1rem; } }
`;

/** Filters the operations (list and page) by method, path, operationId, SDK name or summary. */
export const REFERENCE_JS = `
'use strict';
document.addEventListener('DOMContentLoaded', () => {
  const input = document.getElementById('filter');
  if (!input) return;
  const items = Array.from(document.querySelectorAll('[data-search]'));
  const groups = Array.from(document.querySelectorAll('.toc > li, section.tag')).filter((group) => group.querySelector('[data-search]'));
  input.addEventListener('input', () => {
    const words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
    for (const item of items) item.hidden = !words.every((word) => item.dataset.search.includes(word));
    for (const group of groups) group.hidden = !group.querySelector('[data-search]:not([hidden])');
  });
});
`;
