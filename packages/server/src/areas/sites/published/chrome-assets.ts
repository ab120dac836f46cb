// The style and behaviour of a published site's chrome (issue 28, "Reading"): the header's icon
// buttons and logo, header and footer links, section groups as disclosure menus, the page tree's
// folding (kept in localStorage), the outline following the reading position, the phone's navigation
// drawer, and relative dates kept current. Appended to the shared stylesheet and script
// (site-assets.ts); the icons drawn by CSS are icons.ts's, as masks.
import { iconUrl } from './icons.js';

export const CHROME_CSS = `
.site-header .icon-button{display:inline-flex;align-items:center;justify-content:center;flex:none;width:2.25rem;height:2.25rem;padding:0;margin:0;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--text);cursor:pointer}
.site-header .icon-button:hover{border-color:var(--primary)}
.icon{width:1.2rem;height:1.2rem;flex:none}
.header-actions{margin-left:auto;display:flex;align-items:center;gap:.4rem;min-width:0}
.header-actions .search{margin-left:0}
.theme-toggle .icon{display:none}
.theme-toggle[data-state=auto] .theme-auto,.theme-toggle[data-state=light] .theme-light,.theme-toggle[data-state=dark] .theme-dark{display:block}
.site-logo{height:1.8rem;width:auto;max-width:10rem;object-fit:contain}
.logo-dark{display:none}
html[data-theme=dark] .logo-light{display:none}html[data-theme=dark] .logo-dark{display:inline}
@media (prefers-color-scheme:dark){html:not([data-theme=light]) .logo-light{display:none}html:not([data-theme=light]) .logo-dark{display:inline}}
.header-links ul,.footer-links ul{display:flex;flex-wrap:wrap;gap:.3rem 1.1rem;list-style:none;margin:0;padding:0}
.header-links a{color:inherit;text-decoration:none;font-size:.92rem;white-space:nowrap}
.header-links a:hover{text-decoration:underline}
.footer-links ul{justify-content:center;margin-bottom:.5rem}
.footer-links a{color:var(--muted)}
.external-icon{width:.8em;height:.8em;margin-left:.2em;vertical-align:-.05em;opacity:.75}
.section-tabs{overflow:visible}
.section-tabs ul{flex-wrap:wrap}
.tab-group{position:relative}
.tab-group>summary{list-style:none;display:flex;align-items:center;gap:.2rem;padding:.6rem .8rem;color:var(--muted);cursor:pointer;white-space:nowrap;border-bottom:2px solid transparent}
.tab-group>summary::-webkit-details-marker{display:none}
.tab-group.current>summary{color:var(--text);border-bottom-color:var(--primary);font-weight:600}
.tab-group .chevron{width:1rem;height:1rem;transform:rotate(90deg);transition:transform .15s}
.tab-group[open] .chevron{transform:rotate(-90deg)}
.section-tabs .tab-menu{position:absolute;z-index:6;top:100%;left:0;display:block;min-width:15rem;margin:0;padding:.3rem;list-style:none;background:var(--bg);border:1px solid var(--border);border-radius:var(--radius);box-shadow:0 8px 24px rgb(0 0 0 / .15)}
.section-tabs .tab-menu a{display:block;padding:.45rem .7rem;border:0;border-radius:var(--radius);white-space:normal;color:var(--text)}
.section-tabs .tab-menu a:hover,.section-tabs .tab-menu a:focus-visible{background:var(--tint)}
.section-tabs .tab-menu a[aria-current]{color:var(--link)}
.section-tabs a,.tab-group>summary{align-items:center;gap:.4rem}.section-tabs a:has(.section-icon){display:flex}
.section-icon{width:1.05rem;height:1.05rem;opacity:.85}
.tab-menu a:has(.section-icon){display:grid;grid-template-columns:auto 1fr;column-gap:.5rem}.tab-menu a .section-icon{grid-row:1/3;margin-top:.2rem}
.tab-menu small{display:block;color:var(--muted);font-weight:400;font-size:.82rem}
.tree-parent{position:relative}
.tree-parent>a,.tree-parent>.tree-group{padding-right:2rem}
.tree-toggle{position:absolute;right:.1rem;top:.15rem;width:1.7rem;height:1.7rem;padding:0;border:0;border-radius:var(--radius);background:none;color:var(--muted);cursor:pointer}
.tree-toggle:hover{background:var(--tint)}
.tree-toggle::before{content:"";display:block;width:1rem;height:1rem;margin:auto;background:currentColor;-webkit-mask:${iconUrl('chevron')} center/contain no-repeat;mask:${iconUrl('chevron')} center/contain no-repeat;transition:transform .15s}
.tree-toggle[aria-expanded=true]::before{transform:rotate(90deg)}
.tree-parent.folded>ul{display:none}
.outline-inner{max-height:calc(100vh - 6rem);overflow-y:auto;overscroll-behavior:contain}
.outline a{border-left:2px solid transparent;padding-left:.6rem}
.outline a.active{color:var(--link);border-left-color:var(--primary);font-weight:600}
.content{overflow-wrap:break-word}
.nav-drawer{position:fixed;inset:0 auto 0 0;width:min(20rem,88vw);height:100%;max-width:none;max-height:none;margin:0;padding:0 1rem 1.5rem;border:0;border-right:1px solid var(--border);background:var(--bg);color:var(--text);overflow-y:auto}
.nav-drawer::backdrop{background:rgb(0 0 0 / .4)}
.drawer-head{position:sticky;top:0;display:flex;justify-content:flex-end;padding:.6rem 0;background:var(--bg)}
.drawer-close{width:2.25rem;height:2.25rem;padding:0;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg);color:var(--text);cursor:pointer}
.drawer-close::before{content:"";display:block;width:1.2rem;height:1.2rem;margin:auto;background:currentColor;-webkit-mask:${iconUrl('close')} center/contain no-repeat;mask:${iconUrl('close')} center/contain no-repeat}
.nav-drawer .header-links,.nav-drawer .section-tabs{display:block;margin:0 0 1rem;border:0}
.nav-drawer .header-links ul,.nav-drawer .section-tabs ul{flex-direction:column;align-items:stretch;padding:0;gap:0}
.nav-drawer .header-links a,.nav-drawer .section-tabs a{display:block;padding:.35rem .6rem}
.nav-drawer .tab-group>summary{padding:.35rem .6rem}
.nav-drawer .section-tabs .tab-menu{position:static;box-shadow:none;border:0;padding:0 0 0 .8rem}
@media (min-width:761px){.site-header .menu-button{display:none}}
.site-header .menu-link,.sidebar-links{display:none}
@media (max-width:760px){
.site-header{flex-wrap:nowrap;gap:.5rem}
html.js .sidebar,html.js body>.section-tabs,.site-header .header-links{display:none}
html:not(.js) .site-header .menu-link{display:inline-flex}
html:not(.js) .sidebar-links{display:flex;flex-wrap:wrap;gap:.3rem 1rem;list-style:none;margin:.3rem 0 .6rem;padding:0}
#site-nav{scroll-margin-top:4.5rem}
.header-actions .search{flex:0 1 auto}
.header-actions .search input{width:min(18rem,36vw)}
.site-title{flex:1 1 auto}
.site-logo{max-width:7rem}
.header-actions{gap:.3rem}
.site-header .search-button{width:2.25rem;height:2.25rem;padding:0;justify-content:center;flex:none}
.search-button span{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
}
.search-button .icon{width:1.05rem;height:1.05rem}
`;

export const CHROME_JS = `
(function () {
  var root = document.documentElement;
  root.classList.add('js');
  var THEME_KEY = 'cw-site-theme';
  var FOLD_KEY = 'cw-site-tree:' + location.pathname.split('/').slice(0, 3).join('/');
  function stored(key) { try { return localStorage.getItem(key); } catch (e) { return null; } }
  function store(key, value) { try { if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value); } catch (e) {} }
  function applyTheme(theme) { if (theme === 'light' || theme === 'dark') root.setAttribute('data-theme', theme); else root.removeAttribute('data-theme'); }
  applyTheme(stored(THEME_KEY));

  function themeButton() {
    var button = document.querySelector('.theme-toggle');
    if (!button) return;
    function label() {
      var state = root.getAttribute('data-theme') || 'auto';
      button.setAttribute('data-state', state);
      button.setAttribute('aria-label', button.getAttribute('data-label-' + state) || state);
    }
    label();
    button.hidden = false;
    button.addEventListener('click', function () {
      var order = ['auto', 'light', 'dark'];
      var next = order[(order.indexOf(root.getAttribute('data-theme') || 'auto') + 1) % 3];
      applyTheme(next);
      store(THEME_KEY, next === 'auto' ? null : next);
      label();
    });
  }

  // Folding of the page tree: the visitor's choices by entry, else the server's (data-expanded).
  function tree() {
    var choices = {};
    try { choices = JSON.parse(stored(FOLD_KEY) || '{}') || {}; } catch (e) {}
    document.querySelectorAll('.page-tree li.tree-parent').forEach(function (item, n) {
      var head = item.firstElementChild;
      var key = (head && head.getAttribute('href')) || 'group:' + (head ? head.textContent : n);
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'tree-toggle';
      button.setAttribute('aria-label', item.getAttribute('data-label') || '');
      var list = item.querySelector(':scope > ul');
      if (list) { list.id = list.id || 'tree-list-' + n; button.setAttribute('aria-controls', list.id); }
      function set(open) { item.classList.toggle('folded', !open); button.setAttribute('aria-expanded', String(open)); }
      set(key in choices ? choices[key] : item.getAttribute('data-expanded') === 'true');
      button.addEventListener('click', function () {
        var open = button.getAttribute('aria-expanded') !== 'true';
        set(open);
        choices[key] = open;
        store(FOLD_KEY, JSON.stringify(choices));
      });
      head.insertAdjacentElement('afterend', button);
    });
  }

  // The outline marks the section being read, and keeps it in view on long outlines.
  function outline() {
    var links = Array.prototype.slice.call(document.querySelectorAll('.outline a[href^="#"]'));
    if (links.length === 0 || !window.IntersectionObserver) return;
    var box = document.querySelector('.outline-inner');
    var byId = {};
    var headings = links.map(function (a) { var id = decodeURIComponent(a.getAttribute('href').slice(1)); byId[id] = a; return document.getElementById(id); }).filter(Boolean);
    var visible = {};
    function mark() {
      // Above the first heading, the first one: the visitor is reading its beginning.
      var current = headings[0];
      for (var i = 0; i < headings.length; i++) {
        if (visible[headings[i].id]) { current = headings[i]; break; }
        if (headings[i].getBoundingClientRect().top < 120) current = headings[i];
      }
      links.forEach(function (a) { a.classList.remove('active'); a.removeAttribute('aria-current'); });
      var link = current && byId[current.id];
      if (!link) return;
      link.classList.add('active');
      link.setAttribute('aria-current', 'location');
      if (box && (link.offsetTop < box.scrollTop || link.offsetTop + link.offsetHeight > box.scrollTop + box.clientHeight)) box.scrollTop = link.offsetTop - box.clientHeight / 2;
    }
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) { visible[entry.target.id] = entry.isIntersecting; });
      mark();
    }, { rootMargin: '-64px 0px -55% 0px' });
    headings.forEach(function (heading) { observer.observe(heading); });
  }

  // On phones the navigation opens in a modal drawer: the browser keeps focus inside it and Escape closes it.
  function drawer() {
    var button = document.querySelector('.menu-button');
    var nav = document.querySelector('.sidebar .sidebar-inner details');
    if (!button || !nav || typeof HTMLDialogElement !== 'function') return;
    button.hidden = false;
    var dialog = document.createElement('dialog');
    dialog.className = 'nav-drawer';
    dialog.setAttribute('aria-label', button.getAttribute('aria-label'));
    var head = document.createElement('div');
    head.className = 'drawer-head';
    var close = document.createElement('button');
    close.type = 'button';
    close.className = 'drawer-close';
    close.setAttribute('aria-label', button.getAttribute('data-close-label'));
    close.addEventListener('click', function () { dialog.close(); });
    head.appendChild(close);
    dialog.appendChild(head);
    document.body.appendChild(dialog);
    var moved = [];
    button.addEventListener('click', function () {
      // The header's links and the section tabs, then the switcher and the tree, moved in and back out.
      ['.site-header .header-links', '.section-tabs'].forEach(function (selector) {
        var node = document.querySelector(selector);
        if (node) { moved.push([node, node.parentNode, node.nextSibling]); dialog.appendChild(node); }
      });
      Array.prototype.slice.call(nav.children).forEach(function (node) {
        if (node.tagName === 'SUMMARY') return;
        moved.push([node, nav, null]);
        dialog.appendChild(node);
      });
      dialog.showModal();
      button.setAttribute('aria-expanded', 'true');
      var here = dialog.querySelector('[aria-current=page]');
      if (here) here.scrollIntoView({ block: 'center' });
    });
    dialog.addEventListener('click', function (event) { if (event.target === dialog) dialog.close(); });
    dialog.addEventListener('close', function () {
      moved.forEach(function (entry) { entry[1].insertBefore(entry[0], entry[2]); });
      moved = [];
      button.setAttribute('aria-expanded', 'false');
      button.focus();
    });
    window.matchMedia('(min-width: 761px)').addEventListener('change', function (query) { if (query.matches && dialog.open) dialog.close(); });
  }

  // Section groups: one menu open at a time, closed by Escape or a click elsewhere.
  function menus() {
    var groups = Array.prototype.slice.call(document.querySelectorAll('details.tab-group'));
    groups.forEach(function (group) {
      group.addEventListener('toggle', function () { if (group.open) groups.forEach(function (other) { if (other !== group) other.open = false; }); });
      group.addEventListener('keydown', function (event) {
        if (event.key === 'Escape' && group.open) { group.open = false; group.querySelector('summary').focus(); }
      });
    });
    document.addEventListener('click', function (event) { groups.forEach(function (group) { if (group.open && !group.contains(event.target)) group.open = false; }); });
  }

  // "3 days ago" as of now, in the page's language (the server wrote it when it made the page).
  function dates() {
    if (!window.Intl || !Intl.RelativeTimeFormat) return;
    var format = new Intl.RelativeTimeFormat(root.lang || 'en', { numeric: 'auto' });
    var units = [['year', 31536e6], ['month', 2592e6], ['week', 6048e5], ['day', 864e5], ['hour', 36e5], ['minute', 6e4]];
    document.querySelectorAll('time.relative').forEach(function (time) {
      var elapsed = new Date(time.getAttribute('datetime')).getTime() - Date.now();
      if (isNaN(elapsed)) return;
      for (var i = 0; i < units.length; i++) {
        if (Math.abs(elapsed) >= units[i][1]) { time.textContent = format.format(Math.round(elapsed / units[i][1]), units[i][0]); return; }
      }
      time.textContent = format.format(0, 'second');
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    themeButton();
    tree();
    outline();
    drawer();
    menus();
    dates();
  });
})();
`;
