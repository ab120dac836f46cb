// Fetches for an import, through the outbound guard, within what the import's budget has left: each
// fetch gets the lower of the guard's own limits and the import's remaining time and bytes. A fetch
// cut short by the import's budget stops the import (the limit is recorded); one that fails on its
// own is the caller's to report.
import type { Config } from '../../config.js';
import { fetchGuarded, OutboundError, type OutboundResponse } from '../../outbound.js';
import type { ImportBudget } from './import-budget.js';

export type Fetched = OutboundResponse & { contentType: string | undefined };

/** A fetch that ran into the import's budget: the import stops there (the budget knows which limit). */
export class BudgetExhausted extends Error {}

export async function fetchForImport(url: string, budget: ImportBudget, outbound: Config['outbound'], maxBytes = Infinity): Promise<Fetched> {
  const timeLeft = budget.remainingMs();
  if (timeLeft <= 0) {
    budget.stop('time');
    throw new BudgetExhausted();
  }
  const bytesLeft = budget.bytesLeft;
  const cap = Math.min(outbound.maxBytes, maxBytes);
  const timeoutMs = Math.min(outbound.timeoutMs, timeLeft);
  try {
    const response = await fetchGuarded(url, { ...outbound, timeoutMs, maxBytes: Math.min(cap, bytesLeft) });
    budget.takeBytes(response.body.length);
    const contentType = response.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || undefined;
    return { ...response, contentType };
  } catch (error) {
    if (error instanceof OutboundError) {
      if (error.code === 'TOO_LARGE' && bytesLeft < cap) {
        budget.stop('bytes');
        throw new BudgetExhausted();
      }
      if (error.code === 'TIMEOUT' && timeLeft < outbound.timeoutMs) {
        budget.stop('time');
        throw new BudgetExhausted();
      }
    }
    throw error;
  }
}

/** The `charset` of a Content-Type header, or of a `<meta charset>` near the start of an HTML page. */
function charsetOf(response: OutboundResponse, sniffHtml: boolean): string {
  const header = /charset\s*=\s*"?([\w.:-]+)/i.exec(String(response.headers['content-type'] ?? ''))?.[1];
  if (header) return header;
  if (sniffHtml) {
    const head = response.body.subarray(0, 2048).toString('latin1');
    const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head)?.[1];
    if (meta) return meta;
  }
  return 'utf-8';
}

/** The body as text, in its declared character set (UTF-8 when none or unknown); NUL characters replaced. */
export function textOf(response: OutboundResponse, sniffHtml = false): string {
  let charset = charsetOf(response, sniffHtml);
  try {
    new TextDecoder(charset);
  } catch {
    charset = 'utf-8';
  }
  return withoutNul(new TextDecoder(charset).decode(response.body));
}

/** PostgreSQL text cannot hold U+0000: imported text never carries one. */
export function withoutNul(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

/** Why a fetch failed, in words for `skipped` and error messages. */
export function fetchFailure(error: unknown): string {
  if (error instanceof OutboundError) return error.message;
  return (error as Error).message ?? String(error);
}
