// The words of a published site's interface (not its content), in the site's language
// (`customizations.site.internationalization.locale`): one table, one entry per language, every key in
// every language (`satisfies` checks it). A language the table lacks reads English. Dates are relative
// ("updated 3 days ago") through Intl.RelativeTimeFormat, with the exact date beside them.

const EN = {
  skip: 'Skip to content',
  search: 'Search',
  searchSite: 'Search this site',
  searchPlaceholder: 'Search…',
  menu: 'Menu',
  closeMenu: 'Close menu',
  pages: 'Pages',
  sections: 'Sections',
  siteLinks: 'Site links',
  breadcrumb: 'Breadcrumb',
  onThisPage: 'On this page',
  variants: 'Variants',
  previous: 'Previous',
  next: 'Next',
  previousNext: 'Previous and next pages',
  lastUpdated: 'Last updated',
  copyMarkdown: 'Copy page as Markdown',
  themeAuto: 'Theme: automatic (switch to light)',
  themeLight: 'Theme: light (switch to dark)',
  themeDark: 'Theme: dark (switch to automatic)',
  expand: 'Show pages under',
  external: 'another site',
  morePages: (count: number) => `and ${count} more pages`,
  servedBy: 'served by Content Workspace',
};

export type Words = typeof EN;

const WORDS = {
  en: EN,
  fr: {
    skip: 'Aller au contenu',
    search: 'Rechercher',
    searchSite: 'Rechercher dans ce site',
    searchPlaceholder: 'Rechercher…',
    menu: 'Menu',
    closeMenu: 'Fermer le menu',
    pages: 'Pages',
    sections: 'Sections',
    siteLinks: 'Liens du site',
    breadcrumb: "Fil d'Ariane",
    onThisPage: 'Sur cette page',
    variants: 'Variantes',
    previous: 'Précédent',
    next: 'Suivant',
    previousNext: 'Pages précédente et suivante',
    lastUpdated: 'Mis à jour',
    copyMarkdown: 'Copier la page en Markdown',
    themeAuto: 'Thème : automatique (passer au clair)',
    themeLight: 'Thème : clair (passer au sombre)',
    themeDark: 'Thème : sombre (passer à l’automatique)',
    expand: 'Afficher les pages de',
    external: 'autre site',
    morePages: (count: number) => `et ${count} autres pages`,
    servedBy: 'publié avec Content Workspace',
  },
  de: {
    skip: 'Zum Inhalt springen',
    search: 'Suchen',
    searchSite: 'Diese Website durchsuchen',
    searchPlaceholder: 'Suchen…',
    menu: 'Menü',
    closeMenu: 'Menü schließen',
    pages: 'Seiten',
    sections: 'Bereiche',
    siteLinks: 'Links der Website',
    breadcrumb: 'Brotkrumennavigation',
    onThisPage: 'Auf dieser Seite',
    variants: 'Varianten',
    previous: 'Zurück',
    next: 'Weiter',
    previousNext: 'Vorherige und nächste Seite',
    lastUpdated: 'Zuletzt aktualisiert',
    copyMarkdown: 'Seite als Markdown kopieren',
    themeAuto: 'Design: automatisch (zu hell wechseln)',
    themeLight: 'Design: hell (zu dunkel wechseln)',
    themeDark: 'Design: dunkel (zu automatisch wechseln)',
    expand: 'Seiten anzeigen unter',
    external: 'andere Website',
    morePages: (count: number) => `und ${count} weitere Seiten`,
    servedBy: 'bereitgestellt von Content Workspace',
  },
  es: {
    skip: 'Ir al contenido',
    search: 'Buscar',
    searchSite: 'Buscar en este sitio',
    searchPlaceholder: 'Buscar…',
    menu: 'Menú',
    closeMenu: 'Cerrar menú',
    pages: 'Páginas',
    sections: 'Secciones',
    siteLinks: 'Enlaces del sitio',
    breadcrumb: 'Ruta de navegación',
    onThisPage: 'En esta página',
    variants: 'Variantes',
    previous: 'Anterior',
    next: 'Siguiente',
    previousNext: 'Páginas anterior y siguiente',
    lastUpdated: 'Última actualización',
    copyMarkdown: 'Copiar la página como Markdown',
    themeAuto: 'Tema: automático (cambiar a claro)',
    themeLight: 'Tema: claro (cambiar a oscuro)',
    themeDark: 'Tema: oscuro (cambiar a automático)',
    expand: 'Mostrar páginas de',
    external: 'otro sitio',
    morePages: (count: number) => `y ${count} páginas más`,
    servedBy: 'publicado con Content Workspace',
  },
  ja: {
    skip: 'コンテンツへスキップ',
    search: '検索',
    searchSite: 'このサイトを検索',
    searchPlaceholder: '検索…',
    menu: 'メニュー',
    closeMenu: 'メニューを閉じる',
    pages: 'ページ',
    sections: 'セクション',
    siteLinks: 'サイトのリンク',
    breadcrumb: 'パンくずリスト',
    onThisPage: 'このページの内容',
    variants: 'バリアント',
    previous: '前へ',
    next: '次へ',
    previousNext: '前後のページ',
    lastUpdated: '最終更新',
    copyMarkdown: 'ページを Markdown でコピー',
    themeAuto: 'テーマ: 自動（ライトに切り替え）',
    themeLight: 'テーマ: ライト（ダークに切り替え）',
    themeDark: 'テーマ: ダーク（自動に切り替え）',
    expand: '下位ページを表示:',
    external: '外部サイト',
    morePages: (count: number) => `ほか ${count} ページ`,
    servedBy: 'Content Workspace で公開',
  },
  zh: {
    skip: '跳到内容',
    search: '搜索',
    searchSite: '搜索本站',
    searchPlaceholder: '搜索…',
    menu: '菜单',
    closeMenu: '关闭菜单',
    pages: '页面',
    sections: '栏目',
    siteLinks: '站点链接',
    breadcrumb: '面包屑导航',
    onThisPage: '本页内容',
    variants: '版本',
    previous: '上一页',
    next: '下一页',
    previousNext: '上一页和下一页',
    lastUpdated: '最后更新',
    copyMarkdown: '复制页面为 Markdown',
    themeAuto: '主题：自动（切换为浅色）',
    themeLight: '主题：浅色（切换为深色）',
    themeDark: '主题：深色（切换为自动）',
    expand: '显示下级页面：',
    external: '外部网站',
    morePages: (count: number) => `还有 ${count} 个页面`,
    servedBy: '由 Content Workspace 发布',
  },
} satisfies Record<string, Words>;

/** The interface words for a site's locale (`pt-br` reads as `pt`; an unknown language as English). */
export function wordsFor(locale: string): Words {
  const language = locale.toLowerCase().split('-')[0]!;
  return (WORDS as Record<string, Words>)[language] ?? EN;
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['week', 7 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];

/** `then` relative to `now` in the locale's words ("3 days ago", "il y a 3 jours"); "now" under a minute. */
export function relativeTime(locale: string, then: Date, now: Date): string {
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const elapsed = then.getTime() - now.getTime();
  for (const [unit, size] of UNITS) {
    if (Math.abs(elapsed) >= size) return format.format(Math.round(elapsed / size), unit);
  }
  return format.format(0, 'second');
}

/** The exact date and time in the locale, for the `title` of a relative date. */
export const exactDate = (locale: string, date: Date) => new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date);
