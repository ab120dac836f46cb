// The stylesheet and the one script every published site shares (served under the site's address at
// names carrying their hash, so they are cached for good), and the theme stylesheet made from a site's
// `customizations.site` (colours, tint, corners, font, sidebar). No inline style or script anywhere: the
// pages' policy allows only these files. Colours come from the stored customization, whose schema
// allows `#rrggbb` only; they are checked again here before they reach CSS.
import { createHash } from 'node:crypto';
import { CHROME_CSS, CHROME_JS } from './chrome-assets.js';
import { iconUrl } from './icons.js';
import { BODY_CSS, BODY_JS } from './body-assets.js';
import { SEARCH_DIALOG_CSS, SEARCH_DIALOG_JS } from './search-dialog.js';
import { CODE_FAMILY, FONT_CSS, FONT_FILES, TEXT_FAMILY } from './site-fonts.js';

/** The hints' marks: the icons of icons.ts as CSS masks (the body's renderer draws no icon itself). */
const HINT_ICONS = (['info', 'success', 'warning', 'danger'] as const).map((style) => `.hint-${style}{--hint-icon:${iconUrl(style)}}`).join('\n');

const SITE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;color-scheme:light}
html[data-theme=dark]{color-scheme:dark}
@media (prefers-color-scheme:dark){html:not([data-theme=light]){color-scheme:dark}}
body{margin:0;min-height:100vh;display:flex;flex-direction:column;font-family:var(--font);font-size:16px;line-height:1.65;color:var(--text);background:var(--bg)}
a{color:var(--link)}
a:focus-visible,button:focus-visible,summary:focus-visible,[tabindex]:focus-visible,input:focus-visible{outline:2px solid var(--link);outline-offset:2px}
.skip-link{position:absolute;left:-9999px;top:0;background:var(--bg);padding:.5rem 1rem;z-index:10}
.skip-link:focus{left:.5rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.site-header{position:sticky;top:0;z-index:5;display:flex;align-items:center;gap:1rem;padding:.6rem clamp(1rem,3vw,2rem);background:var(--header-bg);color:var(--header-text);border-bottom:1px solid var(--border)}
.site-title{display:flex;align-items:center;gap:.5rem;font-weight:700;font-size:1.1rem;color:inherit;text-decoration:none;min-width:0}
.site-title span{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.search{margin-left:auto;display:flex;gap:.25rem;min-width:0}
.search input{width:min(18rem,40vw);padding:.4rem .7rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--text);font:inherit;font-size:.9rem}
.search button,.theme-toggle{padding:.4rem .7rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--text);font:inherit;font-size:.9rem;cursor:pointer}
.theme-toggle{margin-left:.25rem}
.search:not(:has(input)) + .theme-toggle,.site-header > .theme-toggle:nth-child(2){margin-left:auto}
.section-tabs{border-bottom:1px solid var(--border);background:var(--bg);overflow-x:auto}
.section-tabs ul{display:flex;gap:.25rem;list-style:none;margin:0;padding:0 clamp(1rem,3vw,2rem)}
.section-tabs li{display:flex;align-items:center}
.section-tabs a{display:block;padding:.6rem .8rem;color:var(--muted);text-decoration:none;border-bottom:2px solid transparent;white-space:nowrap}
.section-tabs a[aria-current]{color:var(--text);border-bottom-color:var(--primary);font-weight:600}
.section-tabs .group{padding:.6rem .2rem .6rem .8rem;color:var(--muted);font-size:.8rem;text-transform:uppercase;letter-spacing:.04em}
.layout{flex:1 0 auto;width:100%;display:grid;grid-template-columns:minmax(0,17rem) minmax(0,1fr) minmax(0,14rem);gap:clamp(1rem,3vw,2.5rem);max-width:90rem;margin:0 auto;padding:0 clamp(1rem,3vw,2rem)}
.sidebar{padding:1.25rem 0;font-size:.93rem;background:var(--sidebar-bg)}
.sidebar-inner{position:sticky;top:4rem;max-height:calc(100vh - 5rem);overflow:auto;padding-right:.5rem}
.sidebar details>summary{display:none}
.switcher{margin:0 0 1rem}
.switcher p{margin:0 0 .3rem;font-size:.78rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted)}
.switcher ul{display:flex;flex-wrap:wrap;gap:.3rem;list-style:none;margin:0;padding:0}
.switcher a{display:block;padding:.2rem .6rem;border:1px solid var(--border);border-radius:var(--radius);text-decoration:none;color:var(--text);font-size:.88rem}
.switcher a[aria-current]{border-color:var(--primary);background:var(--tint);font-weight:600}
.page-tree,.page-tree ul{list-style:none;margin:0;padding:0}
.page-tree ul{padding-left:.9rem;border-left:1px solid var(--border);margin-left:.5rem}
.page-tree a,.page-tree .tree-group{display:block;padding:.28rem .6rem;border-radius:var(--radius);color:var(--text);text-decoration:none}
.page-tree .tree-group{margin-top:.8rem;font-size:.78rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);font-weight:600}
.page-tree a:hover{background:var(--tint)}
.page-tree a[aria-current]{color:var(--link);background:var(--tint);font-weight:600}
.sidebar-line .page-tree a[aria-current]{background:none;border-left:2px solid var(--primary);border-radius:0}
.page-tree .more{color:var(--muted);font-size:.85rem}
main{min-width:0;padding:1.5rem 0 3rem}
.breadcrumbs ol{display:flex;flex-wrap:wrap;gap:.3rem;list-style:none;margin:0 0 .8rem;padding:0;font-size:.88rem;color:var(--muted)}
.breadcrumbs li+li::before{content:"/";margin-right:.3rem}
.breadcrumbs a{color:var(--muted)}
.cover{width:100%;max-height:16rem;object-fit:cover;border-radius:var(--radius);margin-bottom:1rem}
.page-title{font-size:clamp(1.8rem,4vw,2.4rem);line-height:1.2;margin:.2rem 0 .5rem}
.page-description{font-size:1.12rem;color:var(--muted);margin:0 0 1.5rem}
.page-actions{margin:-1rem 0 1.5rem;font-size:.9rem}
.content h1,.content h2,.content h3,.content h4{line-height:1.3;margin:2rem 0 .7rem;scroll-margin-top:5rem}
.heading-anchor{margin-left:.4rem;color:var(--muted);text-decoration:none;opacity:0}
h1:hover .heading-anchor,h2:hover .heading-anchor,h3:hover .heading-anchor,h4:hover .heading-anchor,.heading-anchor:focus{opacity:1}
.content img{max-width:100%;height:auto;border-radius:var(--radius)}
.content pre{position:relative;padding:1rem;overflow:auto;background:var(--code-bg);border:1px solid var(--border);border-radius:var(--radius);font-size:.88rem;line-height:1.5}
.content code{font-family:var(--font-code);font-size:.9em}
.content :not(pre)>code{padding:.1rem .35rem;background:var(--code-bg);border-radius:calc(var(--radius) / 2)}
.table-wrap{overflow-x:auto;margin:1rem 0}
.content table{border-collapse:collapse;min-width:50%}
.content th,.content td{border:1px solid var(--border);padding:.4rem .7rem;text-align:left}
.content th{background:var(--code-bg)}
.content blockquote{margin:1rem 0;padding:.2rem 1rem;border-left:3px solid var(--border);color:var(--muted)}
.task-list-item{list-style:none}
.contains-task-list{padding-left:1.2rem}
.hint{margin:1rem 0;padding:.6rem 1rem;border-left:4px solid var(--hint);background:var(--hint-bg);border-radius:var(--radius)}
.hint-label{margin:.2rem 0;font-weight:700;font-size:.85rem;text-transform:uppercase;letter-spacing:.04em}
.hint-info{--hint:var(--info);--hint-bg:var(--info-bg)}.hint-success{--hint:var(--success);--hint-bg:var(--success-bg)}
.hint-warning{--hint:var(--warning);--hint-bg:var(--warning-bg)}.hint-danger{--hint:var(--danger);--hint-bg:var(--danger-bg)}
.hint-label::before{content:"";display:inline-block;width:1.1em;height:1.1em;margin-right:.4em;vertical-align:-.2em;background:var(--hint);-webkit-mask:var(--hint-icon) center/contain no-repeat;mask:var(--hint-icon) center/contain no-repeat}
${HINT_ICONS}
.broken-link{color:var(--danger-text);text-decoration:underline wavy;cursor:help}
.page-meta{margin-top:3rem;font-size:.88rem;color:var(--muted)}
.pagination{display:grid;grid-template-columns:1fr 1fr;gap:1rem;margin-top:1rem}
.pagination a{display:block;padding:.8rem 1rem;border:1px solid var(--border);border-radius:var(--radius);text-decoration:none;color:var(--text)}
.pagination a:hover{border-color:var(--primary)}
.pagination .next{text-align:right;grid-column:2}
.pagination small{display:block;color:var(--muted)}
.outline{padding:1.5rem 0;font-size:.88rem}
.outline-inner{position:sticky;top:4rem}
.outline p{margin:0 0 .4rem;font-weight:700}
.outline ul{list-style:none;margin:0;padding:0}
.outline li.depth-3{padding-left:.8rem}
.outline a{display:block;padding:.2rem 0;color:var(--muted);text-decoration:none}
.outline a:hover{color:var(--link)}
.not-found{padding:4rem 0;text-align:center}
.layout>main:only-child{grid-column:1/-1}
.search-results{list-style:none;padding:0}
.search-results li{margin:0 0 1.2rem}
.search-results a{font-weight:600}
.search-results p{margin:.2rem 0;color:var(--muted)}
.search-layout>main{max-width:48rem;width:100%;margin:0 auto;padding:1.5rem 0 2rem}
.search-summary{color:var(--muted)}
.search-results .search-where{font-size:.85rem}
.search-results a{overflow-wrap:anywhere}
.site-icon{width:1.5rem;height:1.5rem;object-fit:contain}
.site-footer{border-top:1px solid var(--border);padding:1rem clamp(1rem,3vw,2rem);font-size:.85rem;color:var(--muted);text-align:center}
.hljs-comment,.hljs-quote{color:var(--muted);font-style:italic}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in,.hljs-type{color:var(--code-keyword)}
.hljs-string,.hljs-attr,.hljs-template-tag,.hljs-addition{color:var(--code-string)}
.hljs-number,.hljs-literal,.hljs-variable,.hljs-deletion{color:var(--code-number)}
.hljs-title,.hljs-section,.hljs-name,.hljs-function{color:var(--code-title)}
@media (max-width:1100px){.layout{grid-template-columns:minmax(0,15rem) minmax(0,1fr)}.outline{display:none}}
@media (max-width:760px){
.layout{display:block}
.sidebar{padding:.5rem 0 0}
.sidebar-inner{position:static;max-height:none}
.sidebar details{border:1px solid var(--border);border-radius:var(--radius);padding:.3rem .8rem}
.sidebar details>summary{display:list-item;cursor:pointer;padding:.3rem 0;font-weight:600}
.sidebar details:not([open])>:not(summary){display:none}
/* The header stays one row, with or without script: chrome-assets.ts. */
.site-header .theme-toggle{margin-left:auto;white-space:nowrap}
.site-title{font-size:1rem}
.pagination{grid-template-columns:1fr}.pagination .next{grid-column:1}
}
.page-feedback fieldset{border:1px solid var(--border);border-radius:var(--radius);padding:.75rem 1rem;margin:2rem 0 0}
.page-feedback legend{font-weight:600;padding:0 .25rem}
.page-feedback label{display:block;font-size:.9rem;color:var(--muted)}
.page-feedback textarea{width:100%;box-sizing:border-box;font:inherit;margin:.25rem 0 .5rem}
.feedback-ratings{display:flex;gap:.5rem;flex-wrap:wrap}
.feedback-status:empty,.page-feedback [hidden]{display:none}
@media print{.site-header,.section-tabs,.sidebar,.outline,.pagination,.page-feedback{display:none}.layout{display:block}}
`;

const SITE_JS = `
(function () {
  // The theme, the header's buttons, the navigation and the outline: chrome-assets.ts.
  document.addEventListener('DOMContentLoaded', function () {
    // Feedback sent in the background (the form posts by itself without the script).
    document.querySelectorAll('form[data-feedback]').forEach(function (form) {
      var status = form.querySelector('.feedback-status');
      form.addEventListener('submit', function (event) {
        event.preventDefault();
        var data = new URLSearchParams(new FormData(form));
        if (event.submitter && event.submitter.name) data.set(event.submitter.name, event.submitter.value);
        var buttons = form.querySelectorAll('button');
        buttons.forEach(function (b) { b.disabled = true; });
        fetch(form.action, { method: 'POST', body: data, credentials: 'same-origin', headers: { Accept: 'application/json' } })
          .then(function (response) { return response.json().then(function (body) { return { ok: response.ok, body: body }; }); })
          .then(function (result) {
            if (result.ok) { form.querySelectorAll('textarea, .feedback-ratings').forEach(function (e) { e.hidden = true; }); form.querySelector('label').hidden = true; status.textContent = form.getAttribute('data-thanks'); }
            else { status.textContent = (result.body && result.body.error && result.body.error.message) || form.getAttribute('data-failed'); buttons.forEach(function (b) { b.disabled = false; }); }
          })
          .catch(function () { status.textContent = form.getAttribute('data-retry'); buttons.forEach(function (b) { b.disabled = false; }); });
      });
    });
    var markdown = document.querySelector('a.copy-markdown');
    if (markdown && navigator.clipboard) markdown.addEventListener('click', function (event) {
      event.preventDefault();
      fetch(markdown.href, { headers: { Accept: 'text/markdown' } })
        .then(function (response) { if (!response.ok) throw new Error(String(response.status)); return response.text(); })
        .then(function (text) { return navigator.clipboard.writeText(text); })
        .then(function () {
          var label = markdown.textContent;
          markdown.textContent = markdown.getAttribute('data-copied');
          setTimeout(function () { markdown.textContent = label; }, 2000);
        }, function () { window.location.href = markdown.href; });
    });
  });
})();
`;

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

const ALL_CSS = FONT_CSS + SITE_CSS + CHROME_CSS + BODY_CSS + SEARCH_DIALOG_CSS;
const ALL_JS = CHROME_JS + SITE_JS + BODY_JS;

/**
 * The stylesheet of the answers that name no site (site-responses.ts: absent, too many requests): no
 * site's theme, the system's fonts and colour scheme.
 */
const BARE_CSS = `
:root{color-scheme:light dark;--bg:#f6f7f9;--card:#fff;--text:#1c1e21;--muted:#5b616b;--border:#dfe2e6}
@media (prefers-color-scheme:dark){:root{--bg:#111318;--card:#1d2027;--text:#e6e8eb;--muted:#a3a9b3;--border:#2e323a}}
body{margin:0;min-height:100vh;display:grid;place-items:center;padding:1.5rem;box-sizing:border-box;background:var(--bg);color:var(--text);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
main{max-width:28rem;padding:2rem 2.2rem;background:var(--card);border:1px solid var(--border);border-radius:12px;text-align:center}
main svg{width:2.5rem;height:2.5rem;color:var(--muted)}
h1{font-size:1.4rem;margin:.6rem 0 .4rem}
p{margin:0;color:var(--muted)}
`;

export const SITE_ASSETS = {
  css: { name: `site-${hash(ALL_CSS)}.css`, body: ALL_CSS, type: 'text/css; charset=utf-8' },
  bare: { name: `bare-${hash(BARE_CSS)}.css`, body: BARE_CSS, type: 'text/css; charset=utf-8' },
  search: { name: `search-${hash(SEARCH_DIALOG_JS)}.js`, body: SEARCH_DIALOG_JS, type: 'text/javascript; charset=utf-8' },
  js: { name: `site-${hash(ALL_JS)}.js`, body: ALL_JS, type: 'text/javascript; charset=utf-8' },
  textFont: FONT_FILES.text,
  codeFont: FONT_FILES.code,
} as const;

export type ThemeInput = {
  primary: { light: string; dark: string };
  tint?: { light: string; dark: string } | undefined;
  info: { light: string; dark: string };
  success: { light: string; dark: string };
  warning: { light: string; dark: string };
  danger: { light: string; dark: string };
  corners: 'straight' | 'rounded' | 'circular';
  font: string;
  theme: 'clean' | 'muted' | 'bold' | 'gradient';
  sidebarBackground: 'default' | 'filled';
};

const HEX = /^#[0-9a-fA-F]{6}$/;

function rgb(hex: string): [number, number, number] {
  const value = HEX.test(hex) ? hex : '#346DDB';
  return [1, 3, 5].map((i) => parseInt(value.slice(i, i + 2), 16)) as [number, number, number];
}

const toHex = (channels: number[]) => `#${channels.map((c) => Math.round(Math.max(0, Math.min(255, c))).toString(16).padStart(2, '0')).join('')}`;

function luminance([r, g, b]: number[]): number {
  const [R, G, B] = [r!, g!, b!].map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * R! + 0.7152 * G! + 0.0722 * B!;
}

const contrast = (a: number[], b: number[]) => {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
};

/** `hex` moved toward `target` (black or white) until it reads on every background at 4.5:1 (WCAG AA). */
function readable(hex: string, backgrounds: number[] | number[][], target: number[]): string {
  const all = (Array.isArray(backgrounds[0]) ? backgrounds : [backgrounds]) as number[][];
  let color = rgb(hex) as number[];
  for (let step = 0; step < 30 && all.some((background) => contrast(color, background) < 4.6); step++) color = color.map((c, i) => c + (target[i]! - c) * 0.1);
  return toHex(color);
}

const mix = (hex: string, base: number[], amount: number) => toHex(rgb(hex).map((c, i) => base[i]! + (c - base[i]!) * amount));

const FONT_NAMES: Record<string, string> = {
  ABCFavorit: 'ABC Favorit',
  IBMPlexSerif: 'IBM Plex Serif',
  NotoSans: 'Noto Sans',
  NotoSerif: 'Noto Serif',
  OpenSans: 'Open Sans',
  RobotoSlab: 'Roboto Slab',
  SourceSansPro: 'Source Sans Pro',
  FiraSans: 'Fira Sans',
};

/** The theme stylesheet: CSS variables for light and dark, chosen by the visitor's system or the toggle. */
export function themeCss(theme: ThemeInput): string {
  const WHITE = [255, 255, 255];
  const DARK_BG = [17, 19, 24];
  const BLACK = [0, 0, 0];
  const family = FONT_NAMES[theme.font] ?? theme.font.replace(/[^A-Za-z0-9 ]/g, '');
  const serif = /serif/i.test(family) && !/sans/i.test(family);
  // Inter is served by the site (site-fonts.ts); another sans face is used when the visitor has it, with
  // Inter behind it; a serif face falls back on the system's serif faces.
  const textFamily =
    family === 'Inter'
      ? `"${TEXT_FAMILY}", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`
      : `"${family}", ${serif ? 'Georgia, "DejaVu Serif", serif' : `"${TEXT_FAMILY}", system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`}`;
  const radius = { straight: '0px', rounded: '8px', circular: '16px' }[theme.corners] ?? '8px';
  const palette = (mode: 'light' | 'dark') => {
    const bg = mode === 'light' ? WHITE : DARK_BG;
    const ink = mode === 'light' ? BLACK : WHITE;
    const tintSource = theme.tint?.[mode] ?? theme.primary[mode];
    const page = theme.theme === 'muted' || theme.tint ? mix(tintSource, bg, mode === 'light' ? 0.04 : 0.06) : toHex(bg);
    const pageRgb = rgb(page);
    const primary = HEX.test(theme.primary[mode]) ? theme.primary[mode] : '#346DDB';
    const bold = theme.theme === 'bold' || theme.theme === 'gradient';
    const header = bold ? readable(primary, WHITE, BLACK) : page;
    const vars: Record<string, string> = {
      '--bg': page,
      '--text': mode === 'light' ? '#1c1e21' : '#e6e8eb',
      '--muted': mode === 'light' ? '#5b616b' : '#a3a9b3',
      '--border': mode === 'light' ? '#dfe2e6' : '#2e323a',
      '--primary': primary,
      // Links and current items sit on the page and on the tint.
      '--link': readable(primary, [pageRgb, rgb(mix(tintSource, bg, 0.1))], ink),
      '--tint': mix(tintSource, bg, 0.1),
      '--code-bg': mode === 'light' ? '#f5f6f8' : '#1d2027',
      '--header-bg': theme.theme === 'gradient' ? `linear-gradient(90deg, ${header}, ${readable(mix(primary, BLACK, 0.7), WHITE, BLACK)})` : header,
      '--header-text': bold ? '#ffffff' : mode === 'light' ? '#1c1e21' : '#e6e8eb',
      '--sidebar-bg': theme.sidebarBackground === 'filled' ? mix(tintSource, bg, 0.07) : 'transparent',
      '--radius': radius,
      '--font': textFamily,
      '--font-code': `"${CODE_FAMILY}", ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono", monospace`,
      '--danger-text': readable(theme.danger[mode], pageRgb, ink),
      '--code-keyword': mode === 'light' ? '#a626a4' : '#d49ef0',
      '--code-string': mode === 'light' ? '#2f7a32' : '#8fd18f',
      '--code-number': mode === 'light' ? '#a0521c' : '#f0b27a',
      '--code-title': mode === 'light' ? '#2f5bb7' : '#8ab4f8',
    };
    for (const name of ['info', 'success', 'warning', 'danger'] as const) {
      vars[`--${name}`] = HEX.test(theme[name][mode]) ? theme[name][mode] : '#787878';
      vars[`--${name}-bg`] = mix(theme[name][mode], bg, 0.1);
    }
    return Object.entries(vars)
      .map(([name, value]) => `${name}:${value}`)
      .join(';');
  };
  const light = palette('light');
  const dark = palette('dark');
  return [
    `:root{${light}}`,
    `html[data-theme=dark]{${dark}}`,
    `@media (prefers-color-scheme:dark){html:not([data-theme=light]){${dark}}}`,
    theme.theme === 'gradient' ? '.site-header{background:var(--header-bg)}' : '',
  ].join('\n');
}

export const themeName = (css: string) => `theme-${hash(css)}.css`;
