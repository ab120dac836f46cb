// Page slugs (D8): lowercase words of letters and digits joined by single hyphens, at most 100
// characters, unique among siblings.
export const MAX_SLUG_LENGTH = 100;

/** A slug derived from a title: accents dropped, anything else between words becomes one hyphen. */
export function slugify(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return base.slice(0, MAX_SLUG_LENGTH).replace(/-+$/, '') || 'page';
}

/** `base`, or `base-2`, `base-3`, … (cut to fit 100 characters): the first one not in `taken`. */
export function freeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX_SLUG_LENGTH - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
