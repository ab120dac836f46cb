// The one spelling of a path below a site's root, shared by the redirects the API stores and the
// addresses the published site looks up: decoded segments, each percent-encoded again except for
// the unreserved characters (RFC 3986: A–Z a–z 0–9 - . _ ~), uppercase hex, no trailing slash.
// `/Caf%c3%a9/` and `/Café` are the same source.

const UNRESERVED = /[A-Za-z0-9\-._~]/;

function encodeSegment(segment: string): string {
  let out = '';
  for (const char of segment) {
    if (UNRESERVED.test(char)) out += char;
    else for (const byte of Buffer.from(char, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The canonical path of decoded `segments` (`/a/b`). */
export const pathOfSegments = (segments: readonly string[]): string => `/${segments.map(encodeSegment).join('/')}`;

/** A source path as written → its canonical spelling, or why it is not one. */
export function canonicalSource(path: string): { path: string } | { problem: string } {
  if (!path.startsWith('/')) return { problem: 'must start with /' };
  if (/[?#]/.test(path)) return { problem: 'is a path: no query or fragment' };
  const parts = path.slice(1).split('/');
  if (parts.at(-1) === '') parts.pop();
  if (parts.length === 0) return { problem: "is the site's root, which always shows the site" };
  const segments: string[] = [];
  for (const part of parts) {
    if (part === '') return { problem: 'has an empty segment (//)' };
    let decoded: string;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      return { problem: `has a malformed percent-encoding in "${part.slice(0, 40)}"` };
    }
    if (decoded === '.' || decoded === '..') return { problem: 'has a . or .. segment' };
    if (decoded.includes('/')) return { problem: 'has an encoded / (%2F) in a segment' };
    if (/\p{Cc}/u.test(decoded)) return { problem: 'has a control character' };
    segments.push(decoded);
  }
  return { path: pathOfSegments(segments) };
}
