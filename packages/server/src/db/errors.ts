/** True when `error` is PostgreSQL's unique violation (optionally of the named constraint). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string } | undefined;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}
