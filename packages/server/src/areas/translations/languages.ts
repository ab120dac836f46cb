// Language tags of translation settings: BCP 47, as Unicode locale identifiers (what the platform's
// Intl APIs, and so the readers' browsers, understand). `Intl.getCanonicalLocales` both checks a tag
// is well formed and gives its canonical spelling (`en-us` → `en-US`, `art-lojban` → `jbo`).
import { invalidField } from '../../errors.js';

function canonical(tag: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return undefined;
  }
}

/**
 * The tags in canonical form, in the order given; a 400 naming the first tag that is not well formed
 * or repeats an earlier one once canonical. `path` is where the list sits in the request.
 */
export function normalizeLanguages(tags: readonly string[], path: string): string[] {
  const seen = new Map<string, number>();
  return tags.map((tag, index) => {
    const normalized = canonical(tag);
    if (normalized === undefined) throw invalidField(`${path}/${index}`, `"${tag}" is not a well-formed BCP 47 language tag`);
    const earlier = seen.get(normalized);
    if (earlier !== undefined) throw invalidField(`${path}/${index}`, `"${tag}" repeats ${path}/${earlier} (both are ${normalized})`);
    seen.set(normalized, index);
    return normalized;
  });
}
