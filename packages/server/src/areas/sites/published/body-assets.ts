// The stylesheet and script of the blocks a page body carries (markdown-html.ts dresses them): tabs,
// expandables, code blocks, embeds, content references, cards, steppers, files, math and image zoom.
// They are joined to the site's shared stylesheet and script (site-assets.ts), so a page still loads
// one file of each; kept apart so the body's look lives next to nothing else.
//
// Everything works without the script: tabs show every panel under its title, images open as files,
// code can be selected by hand. The script only adds: the WAI-ARIA tabs pattern (roles, arrows,
// Home/End, roving tabindex), the Copy buttons and the image zoom.

export const BODY_CSS = `
.copy-button{position:absolute;top:.35rem;right:.35rem;padding:.1rem .5rem;font:inherit;font-size:.78rem;line-height:1.5;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--text);cursor:pointer}
.content pre.has-copy{padding-top:2.4rem}
.code-titled figcaption .copy-button{position:static;margin-left:auto}
.code-titled:has(figcaption .copy-button) pre.has-copy{padding-top:1rem}
.tabs{margin:1rem 0;border:1px solid var(--border);border-radius:var(--radius);padding:0 1rem}
.tab-title{font-weight:700;margin:.8rem 0 .2rem}
.tabs.enhanced{padding:0}
.tabs.enhanced [role=tablist]{display:flex;gap:.2rem;border-bottom:1px solid var(--border);padding:0 .5rem;overflow-x:auto}
.tabs.enhanced [role=tab]{padding:.5rem .8rem;border:0;border-bottom:2px solid transparent;background:none;color:var(--muted);font:inherit;cursor:pointer;white-space:nowrap}
.tabs.enhanced [role=tab]:hover{color:var(--text)}
.tabs.enhanced [role=tab][aria-selected=true]{color:var(--text);border-bottom-color:var(--primary);font-weight:600}
.tabs.enhanced [role=tab]:focus-visible{outline-offset:-2px}
.tabs.enhanced .tab{padding:0 1rem}
.tabs.enhanced .tab-title{display:none}
.content details{margin:1rem 0;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg)}
.content details>summary{display:flex;align-items:center;gap:.5rem;padding:.6rem 1rem;cursor:pointer;font-weight:600;list-style:none}
.content details>summary::-webkit-details-marker{display:none}
.content details>summary::before{content:"";flex:none;width:.5em;height:.5em;border-right:2px solid var(--muted);border-bottom:2px solid var(--muted);transform:rotate(-45deg);transition:transform .15s}
.content details[open]>summary::before{transform:rotate(45deg)}
.content details>summary:hover{background:var(--tint)}
.content details[open]>summary{border-bottom:1px solid var(--border)}
.content details>:not(summary){margin-left:1rem;margin-right:1rem}
.code-titled{margin:1rem 0}
.code-titled figcaption{display:flex;align-items:center;gap:.5rem;font-size:.85rem;font-weight:600;padding:.3rem .5rem .3rem .8rem;background:var(--code-bg);border:1px solid var(--border);border-bottom:0;border-radius:var(--radius) var(--radius) 0 0;min-height:2.2rem}
.code-titled pre{margin-top:0;border-top-left-radius:0;border-top-right-radius:0}
.line-numbers code{counter-reset:line}
.line-numbers .line::before{counter-increment:line;content:counter(line);display:inline-block;width:2.2em;margin-right:1em;text-align:right;color:var(--muted);user-select:none;text-indent:0}
.code-wrap pre{white-space:pre-wrap;overflow-wrap:anywhere}
.code-wrap.line-numbers .line{display:inline-block;width:100%;padding-left:3.2em;text-indent:-3.2em}
.embed,.file-block{display:flex;align-items:center;gap:.8rem;margin:1rem 0;padding:.8rem 1rem;border:1px solid var(--border);border-radius:var(--radius);color:var(--text);text-decoration:none}
a.embed:hover,a.file-block:hover,a.card:hover{border-color:var(--link)}
.embed-text,.file-text{display:flex;flex-direction:column;min-width:0}
.embed-title,.file-name{font-weight:600;overflow-wrap:anywhere}
.embed-address,.file-caption{font-size:.85rem;color:var(--muted);overflow-wrap:anywhere}
.embed-mark,.file-mark{flex:none;display:grid;place-items:center;width:2.2rem;height:2.2rem;border-radius:var(--radius);background:var(--tint);color:var(--link);font-weight:700;font-size:.8rem}
.embed-caption{margin:-.6rem 0 1rem;font-size:.88rem;color:var(--muted)}
.content-ref{display:block;margin:1rem 0;padding:.8rem 1rem;border:1px solid var(--border);border-radius:var(--radius);color:var(--text);text-decoration:none}
a.content-ref:hover{border-color:var(--link)}
.content-ref-title{font-weight:600}.content-ref-title::after{content:" →";color:var(--muted)}
.content-ref-address{display:block;font-size:.85rem;color:var(--muted);overflow-wrap:anywhere}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:1rem;margin:1rem 0;padding:0;list-style:none}
.card{position:relative;display:flex;flex-direction:column;border:1px solid var(--border);border-radius:var(--radius);overflow:hidden;color:var(--text);text-decoration:none;background:var(--bg)}
.card-cover{width:100%;aspect-ratio:16/9;object-fit:cover;border-radius:0}
.card-body{padding:.8rem 1rem}
.card-body>*{margin:0 0 .3rem}
.card-title{font-weight:600}
.card-link{color:inherit;text-decoration:none}
.card-link::after{content:"";position:absolute;inset:0}
.card-body a:not(.card-link){position:relative;z-index:1}
.stepper{list-style:none;margin:1rem 0;padding:0;counter-reset:step}
.step{position:relative;padding:0 0 .5rem 2.8rem;counter-increment:step}
.step::before{content:counter(step);position:absolute;left:0;top:.1rem;display:grid;place-items:center;width:1.9rem;height:1.9rem;border-radius:50%;background:var(--tint);color:var(--link);font-weight:700;font-size:.9rem}
.step:not(:last-child)::after{content:"";position:absolute;left:.9rem;top:2.3rem;bottom:.2rem;border-left:2px solid var(--border)}
.step>:first-child{margin-top:.2rem}
.math-block{overflow-x:auto;margin:1rem 0;text-align:center}
.math-block math{font-size:1.15em}
.math-error{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono",monospace;color:var(--danger-text)}
.content img.zoomable{cursor:zoom-in}
.image-zoom{padding:0;border:0;background:transparent;max-width:96vw;max-height:96vh}
.image-zoom::backdrop{background:rgb(0 0 0 / .8)}
.image-zoom img{display:block;max-width:96vw;max-height:96vh;width:auto;height:auto;cursor:zoom-out}
`;

export const BODY_JS = `
(function () {
  document.addEventListener('DOMContentLoaded', function () {
    document.querySelectorAll('.content pre').forEach(function (pre) {
      var code = pre.querySelector('code');
      if (!code || !navigator.clipboard) return;
      var copy = document.createElement('button');
      copy.type = 'button';
      copy.className = 'copy-button';
      copy.textContent = 'Copy';
      copy.setAttribute('aria-label', 'Copy the code');
      copy.addEventListener('click', function () {
        navigator.clipboard.writeText(code.textContent || '').then(function () { copy.textContent = 'Copied'; setTimeout(function () { copy.textContent = 'Copy'; }, 1500); });
      });
      // In a titled block the button sits in the title bar; elsewhere above the first line (has-copy).
      var caption = pre.parentElement && pre.parentElement.classList.contains('code-titled') ? pre.parentElement.querySelector('figcaption') : null;
      if (caption) caption.appendChild(copy);
      else { pre.appendChild(copy); pre.classList.add('has-copy'); }
    });
    // Tabs: the WAI-ARIA tabs pattern, selection following focus.
    document.querySelectorAll('.tabs').forEach(function (tabs, n) {
      var panels = Array.prototype.filter.call(tabs.children, function (c) { return c.classList.contains('tab'); });
      if (panels.length < 2) return;
      var list = document.createElement('div');
      list.setAttribute('role', 'tablist');
      var buttons = panels.map(function (panel, i) {
        var title = panel.querySelector('.tab-title');
        var b = document.createElement('button');
        b.type = 'button';
        b.setAttribute('role', 'tab');
        b.id = 'tabs-' + n + '-tab-' + i;
        panel.id = 'tabs-' + n + '-panel-' + i;
        panel.setAttribute('role', 'tabpanel');
        panel.setAttribute('aria-labelledby', b.id);
        panel.tabIndex = 0;
        b.setAttribute('aria-controls', panel.id);
        b.textContent = title ? title.textContent : 'Tab ' + (i + 1);
        b.addEventListener('click', function () { select(i); });
        list.appendChild(b);
        return b;
      });
      function select(i) {
        buttons.forEach(function (b, j) { b.setAttribute('aria-selected', String(i === j)); b.tabIndex = i === j ? 0 : -1; });
        panels.forEach(function (p, j) { p.hidden = i !== j; });
      }
      list.addEventListener('keydown', function (event) {
        var current = buttons.indexOf(document.activeElement);
        if (current < 0) return;
        var last = buttons.length - 1;
        var next = event.key === 'ArrowRight' ? (current === last ? 0 : current + 1)
          : event.key === 'ArrowLeft' ? (current === 0 ? last : current - 1)
          : event.key === 'Home' ? 0 : event.key === 'End' ? last : -1;
        if (next < 0) return;
        event.preventDefault();
        select(next);
        buttons[next].focus();
      });
      tabs.insertBefore(list, tabs.firstChild);
      tabs.classList.add('enhanced');
      select(0);
    });
    // Image zoom: a modal dialog (Escape, a click or the button closes it; focus comes back).
    var images = document.querySelectorAll('.content img:not(.card-cover)');
    if (images.length && typeof HTMLDialogElement === 'function') {
      var dialog = document.createElement('dialog');
      dialog.className = 'image-zoom';
      dialog.setAttribute('aria-label', 'Enlarged image');
      var large = document.createElement('img');
      large.alt = '';
      dialog.appendChild(large);
      dialog.addEventListener('click', function () { dialog.close(); });
      document.body.appendChild(dialog);
      images.forEach(function (img) {
        if (img.closest('a')) return;
        img.classList.add('zoomable');
        img.tabIndex = 0;
        img.setAttribute('role', 'button');
        img.setAttribute('aria-label', 'Enlarge image' + (img.alt ? ': ' + img.alt : ''));
        var open = function () { large.src = img.currentSrc || img.src; large.alt = img.alt; dialog.showModal(); };
        img.addEventListener('click', open);
        img.addEventListener('keydown', function (event) { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); open(); } });
      });
    }
  });
})();
`;
