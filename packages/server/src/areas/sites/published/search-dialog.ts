// The search dialog of every published site (issue 28, "Search as you type"): the header's search form
// (which works without JavaScript: the results page, endpoints/search.ts) gives way to a button; the
// button, ⌘K / Ctrl K, or `/` outside a text field open a modal <dialog> whose results come while the
// visitor types (debounced, the previous request aborted) from the site's JSON search
// (endpoints/search-json.ts). Results are a listbox driven by the arrow keys and Enter; Escape closes.
// The search keeps to the current variant or section when the page has one (the form's `data-scope`),
// with a toggle to search the whole site. Its words are the site's, from the form's `data-words`
// (site-words.ts `dialog`; `{name}` filled in here); a count that is a lower bound (the dialog's search
// reads a bounded number of matches: endpoints/search-json.ts) reads "at least N". Every text is set as text nodes
// (matched words become <mark> elements from the answer's ranges): nothing the server sends is parsed
// as HTML. Served as its own file (SITE_ASSETS), under the pages' strict policy.

export const SEARCH_DIALOG_CSS = `
[hidden]{display:none!important}
.search-button{margin-left:auto;display:flex;align-items:center;gap:.5rem;min-width:0;padding:.4rem .6rem .4rem .7rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--muted);font:inherit;font-size:.9rem;cursor:pointer}
.search-button:hover{border-color:var(--primary)}
.search-button kbd{font:inherit;font-size:.75rem;padding:0 .35rem;border:1px solid var(--border);border-radius:4px}
.search-dialog{width:min(40rem,calc(100vw - 1.5rem));max-height:min(36rem,calc(100vh - 4rem));margin:4rem auto auto;padding:0;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--text);box-shadow:0 12px 40px rgb(0 0 0 / .25);overflow:hidden}
.search-dialog[open]{display:flex;flex-direction:column}
.search-dialog::backdrop{background:rgb(0 0 0 / .35)}
.search-dialog form{display:flex;align-items:center;gap:.5rem;padding:.6rem .8rem;border-bottom:1px solid var(--border)}
.search-dialog input{flex:1 1 auto;min-width:0;padding:.4rem .2rem;border:0;background:none;color:var(--text);font:inherit;font-size:1.05rem}
.search-dialog input:focus-visible{outline:none}
.search-dialog input::-webkit-search-cancel-button{display:none}
.search-dialog .close{padding:.2rem .5rem;border:1px solid var(--border);border-radius:4px;background:none;color:var(--muted);font:inherit;font-size:.75rem;cursor:pointer}
.search-scope{display:flex;align-items:center;gap:.5rem;padding:.4rem .9rem;font-size:.85rem;color:var(--muted);border-bottom:1px solid var(--border)}
.search-scope button{padding:.1rem .55rem;border:1px solid var(--border);border-radius:999px;background:none;color:var(--text);font:inherit;cursor:pointer}
.search-scope button[aria-pressed=true]{border-color:var(--primary);background:var(--tint);font-weight:600}
.search-dialog [role=listbox]{list-style:none;margin:0;padding:.3rem;overflow-y:auto;flex:1 1 auto}
.search-dialog [role=option]{display:block;padding:.5rem .7rem;border-radius:var(--radius);color:var(--text);text-decoration:none;cursor:pointer}
.search-dialog [role=option][aria-selected=true]{background:var(--tint);outline:1px solid var(--primary)}
.search-dialog .hit-title{display:block;font-weight:600;color:var(--link)}
.search-dialog .hit-where{display:block;font-size:.78rem;color:var(--muted)}
.search-dialog .hit-snippet{display:block;font-size:.88rem;color:var(--muted);overflow:hidden;display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical}
.search-dialog mark,.search-results mark{background:var(--tint);color:inherit;font-weight:700;border-radius:2px}
.search-status{margin:0;padding:.5rem .9rem;font-size:.85rem;color:var(--muted);border-top:1px solid var(--border)}
.search-status a{color:var(--link)}
@media (max-width:760px){.search-dialog{margin-top:.75rem;max-height:calc(100vh - 1.5rem)}.search-button kbd{display:none}}
`;

export const SEARCH_DIALOG_JS = `
(function () {
  var form = document.querySelector('.site-header form.search');
  if (!form || typeof HTMLDialogElement !== 'function' || !window.fetch) return;
  var endpoint = form.getAttribute('data-endpoint');
  var scopeId = form.getAttribute('data-scope');
  var scopeLabel = form.getAttribute('data-scope-label');
  var mac = /Mac|iPhone|iPad/.test(navigator.platform || '');
  var words = {};
  try { words = JSON.parse(form.getAttribute('data-words') || '{}'); } catch (e) { /* the words are the server's own JSON */ }
  function fill(template, values) { return String(template || '').replace(/\\{(\\w+)\\}/g, function (all, name) { return name in values ? String(values[name]) : all; }); }
  function el(tag, props, children) {
    var node = document.createElement(tag);
    for (var k in props) { if (k === 'text') node.textContent = props[k]; else node.setAttribute(k, props[k]); }
    (children || []).forEach(function (c) { node.appendChild(c); });
    return node;
  }
  // The text with its marked ranges as <mark> elements (text nodes only).
  function marked(text, marks) {
    var out = document.createDocumentFragment(), at = 0;
    (marks || []).forEach(function (m) {
      if (m[0] < at || m[1] > text.length) return;
      out.appendChild(document.createTextNode(text.slice(at, m[0])));
      out.appendChild(el('mark', { text: text.slice(m[0], m[1]) }));
      at = m[1];
    });
    out.appendChild(document.createTextNode(text.slice(at)));
    return out;
  }

  // The form's search icon (icons.ts), drawn in the page: the button's only visible mark on a phone.
  var glyph = form.querySelector('svg');
  var button = el('button', { type: 'button', class: 'search-button', 'aria-haspopup': 'dialog', 'aria-keyshortcuts': mac ? 'Meta+K /' : 'Control+K /' }, (glyph ? [glyph.cloneNode(true)] : []).concat([
    el('span', { text: form.getAttribute('data-label') }),
    el('kbd', { 'aria-hidden': 'true', text: mac ? '⌘K' : 'Ctrl K' }),
  ]));
  var input = el('input', { type: 'search', name: 'q', role: 'combobox', 'aria-expanded': 'false', 'aria-controls': 'search-dialog-results', 'aria-autocomplete': 'list', autocomplete: 'off', spellcheck: 'false', maxlength: '200', 'aria-label': form.getAttribute('data-label'), placeholder: form.querySelector('input') ? form.querySelector('input').getAttribute('placeholder') : '' });
  var close = el('button', { type: 'button', class: 'close', text: 'Esc', 'aria-label': words.close });
  var dialogForm = el('form', { role: 'search', action: form.getAttribute('action'), method: 'get' }, [input, close]);
  var list = el('ul', { id: 'search-dialog-results', role: 'listbox', 'aria-label': words.results });
  var status = el('p', { class: 'search-status', role: 'status', 'aria-live': 'polite' });
  var scoped = Boolean(scopeId);
  var scopeBar = null, scopeButtons = [];
  if (scopeId) {
    scopeButtons = [el('button', { type: 'button', 'aria-pressed': 'true', text: scopeLabel || words.thisPart }), el('button', { type: 'button', 'aria-pressed': 'false', text: words.wholeSite })];
    scopeBar = el('div', { class: 'search-scope', role: 'group', 'aria-label': words.searchIn }, [el('span', { text: words.in })].concat(scopeButtons));
    scopeButtons.forEach(function (b, i) {
      b.addEventListener('click', function () { scoped = i === 0; scopeButtons[0].setAttribute('aria-pressed', String(scoped)); scopeButtons[1].setAttribute('aria-pressed', String(!scoped)); run(); input.focus(); });
    });
  }
  var dialog = el('dialog', { class: 'search-dialog', 'aria-label': form.getAttribute('data-label') }, [dialogForm].concat(scopeBar ? [scopeBar] : [], [list, status]));
  form.hidden = true;
  form.parentNode.insertBefore(button, form);
  document.body.appendChild(dialog);

  var options = [], active = -1, timer = 0, controller = null, serial = 0;
  function setActive(i) {
    if (options.length === 0) { active = -1; input.removeAttribute('aria-activedescendant'); return; }
    active = (i + options.length) % options.length;
    options.forEach(function (o, j) { o.setAttribute('aria-selected', String(j === active)); });
    input.setAttribute('aria-activedescendant', options[active].id);
    options[active].scrollIntoView({ block: 'nearest' });
  }
  function show(answer) {
    list.textContent = '';
    options = answer.results.map(function (r, i) {
      var parts = [el('span', { class: 'hit-title' }, [marked(r.title, r.titleMarks)])];
      if (r.where) parts.push(el('span', { class: 'hit-where', text: r.where }));
      if (r.snippet) parts.push(el('span', { class: 'hit-snippet' }, [marked(r.snippet, r.snippetMarks)]));
      var option = el('a', { role: 'option', id: 'search-hit-' + i, href: r.href, 'aria-selected': 'false', tabindex: '-1' }, parts);
      option.addEventListener('mousemove', function () { if (active !== i) setActive(i); });
      list.appendChild(el('li', { role: 'none' }, [option]));
      return option;
    });
    input.setAttribute('aria-expanded', String(options.length > 0));
    status.textContent = '';
    if (answer.total === 0) status.textContent = fill(words.none, { query: answer.query });
    else {
      var count = fill(answer.totalIsLowerBound ? words.atLeast : answer.total === 1 ? words.one : words.other, { count: answer.total });
      status.appendChild(document.createTextNode(count + (answer.scope ? ' ' + fill(words.inScope, { scope: answer.scope.label }) : '') + ' · '));
      status.appendChild(el('a', { href: answer.more, text: words.all }));
    }
    setActive(0);
  }
  function run() {
    clearTimeout(timer);
    var q = input.value.trim();
    if (controller) controller.abort();
    if (q === '') { list.textContent = ''; options = []; setActive(-1); input.setAttribute('aria-expanded', 'false'); status.textContent = words.hint || ''; return; }
    var mine = ++serial;
    controller = typeof AbortController === 'function' ? new AbortController() : null;
    var params = new URLSearchParams({ q: q });
    if (scoped && scopeId) params.set('scope', scopeId);
    fetch(endpoint + '?' + params.toString(), { credentials: 'same-origin', headers: { Accept: 'application/json' }, signal: controller ? controller.signal : undefined })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (r) {
        if (mine !== serial) return;
        if (r.ok) show(r.body);
        else { list.textContent = ''; options = []; setActive(-1); status.textContent = r.body && r.body.error ? r.body.error.message : words.failed; }
      })
      .catch(function (e) { if (e && e.name === 'AbortError') return; if (mine === serial) status.textContent = words.failed; });
  }
  function open() {
    if (dialog.open) { input.focus(); return; }
    // On the results page the header's box holds the query: the dialog goes on from it.
    var kept = form.querySelector('input');
    if (!input.value && kept && kept.value) input.value = kept.value;
    dialog.showModal();
    input.focus();
    input.select();
    run();
  }
  input.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(run, 120); });
  input.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowDown') { e.preventDefault(); setActive(active + 1); }
    else if (e.key === 'ArrowUp') { e.preventDefault(); setActive(active - 1); }
    else if (e.key === 'Enter' && active >= 0 && options[active]) { e.preventDefault(); window.location.assign(options[active].href); }
    // A search field would take the first Escape to clear itself: Escape closes the dialog at once.
    else if (e.key === 'Escape') { e.preventDefault(); dialog.close(); }
  });
  dialogForm.addEventListener('submit', function (e) { if (input.value.trim() === '') e.preventDefault(); });
  close.addEventListener('click', function () { dialog.close(); });
  dialog.addEventListener('click', function (e) { if (e.target === dialog) dialog.close(); });
  dialog.addEventListener('close', function () { button.focus(); });
  button.addEventListener('click', function () { open(); });
  document.addEventListener('keydown', function (e) {
    if ((e.key === 'k' || e.key === 'K') && (e.metaKey || e.ctrlKey) && !e.altKey) { e.preventDefault(); open(); return; }
    if (e.key !== '/' || e.metaKey || e.ctrlKey || e.altKey || dialog.open) return;
    var t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    e.preventDefault();
    open();
  });
})();
`;
