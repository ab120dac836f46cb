// What PostgreSQL can store as text and in its JSON types: no U+0000 (text cannot hold it) and no lone
// surrogate (`"\ud800"` is not Unicode text: json and jsonb refuse the escape JSON.stringify writes).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && !LONE_SURROGATE.test(text);
}
